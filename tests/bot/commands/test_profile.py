"""`llm-sizer profile|history|export|forget` end to end: register() on a fresh argparse parser,
DATABASE_URL pointing at a fresh database, the OS user from LOGNAME."""

import argparse
import asyncio
import io
import json
from pathlib import Path

import pytest

from bot.commands import data, history, profile
from bot.commands.chat import history_path
from storage import NewQuery, Storage


class Terminal(io.StringIO):
    """stdin of someone at a terminal, who will type `answer`."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def cli(
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
    tmp_path: Path,
):
    monkeypatch.setenv("DATABASE_URL", database_url)
    # `forget` deletes the chat's typed lines there: never the developer's own.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))

    def run(*argv: str) -> tuple[int, str, str]:
        parser = argparse.ArgumentParser(prog="llm-sizer")
        commands = parser.add_subparsers(dest="command", required=True)
        for module in (profile, history, data):
            module.register(commands)
        args = parser.parse_args(argv)
        code = args.func(args)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def stored(database_url: str, work):
    async def go():
        async with await Storage.open(database_url) as storage:
            return await work(storage)

    return asyncio.run(go())


def one_line_error(err: str) -> None:
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_set_list_use_show_delete(cli):
    code, out, err = cli("profile", "set", "RTX 4090, 64GB RAM")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Saved profile 'rtx 4090': GeForce RTX 4090 (24 GB), 64 GB RAM",
        "'rtx 4090' is now your default profile.",
    ]
    code, out, _ = cli("profile", "set", "2x RTX 3090 + 128 GB RAM", "--name", "Lab Server")
    assert (
        code == 0
        and out == "Saved profile 'lab server': 2 × GeForce RTX 3090 (24 GB each), 128 GB RAM\n"
    )
    code, out, _ = cli("profile", "list")
    assert out.splitlines() == [
        "  lab server: 2 × GeForce RTX 3090 (24 GB each), 128 GB RAM",
        "* rtx 4090: GeForce RTX 4090 (24 GB), 64 GB RAM",
    ]
    assert cli("profile", "use", "lab server")[1] == "'lab server' is now your default profile.\n"
    code, out, _ = cli("profile", "show")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "lab server (default)"
    assert lines[1] == "  Hardware: 2 × GeForce RTX 3090 (24 GB each), 128 GB RAM"
    assert lines[2] == "  As typed: 2x RTX 3090 + 128 GB RAM"
    code, out, _ = cli("profile", "delete", "lab server")
    assert out.splitlines() == [
        "Deleted profile 'lab server'.",
        "'rtx 4090' is now your default profile.",
    ]
    code, out, _ = cli("profile", "delete", "rtx 4090")
    assert out.splitlines() == [
        "Deleted profile 'rtx 4090'.",
        "You have no hardware profiles left.",
    ]


def test_setting_an_existing_name_updates_it(cli):
    cli("profile", "set", "RTX 4090", "--name", "desk")
    _, out, _ = cli("profile", "set", "M3 Max 64GB", "--name", "desk")
    assert out.startswith("Updated profile 'desk': M3 Max with 64 GB unified memory")


def test_json_output(cli):
    cli("profile", "set", "A100 80GB lab server")
    code, out, _ = cli("profile", "show", "lab server", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["name"] == "lab server" and shown["is_default"]
    assert shown["hardware"]["gpu"] == "A100 80GB SXM4"  # a bare A100 is the SXM board
    (listed,) = json.loads(cli("profile", "list", "--json")[1])
    assert listed == shown


def test_nothing_saved_yet(cli):
    code, out, _ = cli("profile", "show")
    assert code == 1 and out.startswith("No hardware profiles saved yet")
    assert cli("profile", "list") == (0, out, "")
    code, _, err = cli("profile", "use", "laptop")
    assert code == 2
    one_line_error(err)


def test_bad_input_is_one_line_and_keeps_what_was_stored(cli, database_url):
    cli("profile", "set", "RTX 4090, 64GB RAM", "--name", "desk")
    for argv, needle in [
        (("profile", "set", "rtx 9999"), "unknown GPU 'rtx 9999'; did you mean"),
        (("profile", "set", "x" * 10_000_000), "that hardware description is 10000000 characters"),
        (("profile", "set", "RTX 4090\x1b[2J"), "control characters"),
        (("profile", "set", "'; DROP TABLE users; --"), "found no GPU"),
        (("profile", "set", "RTX 4090", "--name", "\x00"), "control characters"),
        (("profile", "show", "nope"), "no hardware profile named 'nope'; yours: desk"),
        (("profile", "delete", "nope"), "yours: desk"),
        (("history", "--limit", "0"), "limit must be between 1 and 1000"),
    ]:
        code, out, err = cli(*argv)
        assert code == 2 and out == "", argv
        one_line_error(err)
        assert needle in err, (argv, err)
    (kept,) = stored(database_url, lambda s: s.profiles.of_user(1))
    assert kept.name == "desk" and kept.text == "RTX 4090, 64GB RAM" and kept.is_default


def test_dutch(cli):
    code, out, _ = cli("profile", "set", "laptop met 4060 laptop en 32GB RAM", "--lang", "nl")
    assert (
        out.splitlines()[0] == "Profiel 'laptop' bewaard: GeForce RTX 4060 Laptop (8 GB), 32 GB RAM"
    )
    code, _, err = cli("profile", "set", "rtx 9999", "--lang", "nl")
    assert code == 2 and "GPU" in err and "Traceback" not in err


def save_questions(database_url: str, os_user: str, texts: list[str]) -> None:
    async def work(storage: Storage) -> None:
        user = await storage.users.ensure("local", os_user)
        for i, text in enumerate(texts):
            await storage.queries.save(
                NewQuery(
                    user_id=user.id,
                    text=text,
                    inputs={"model": "qwen2.5-7b"},
                    verdict="fits" if i % 2 == 0 else "does_not_fit",
                    total_bytes=(i + 1) << 30,
                )
            )

    stored(database_url, work)


def test_history(cli, database_url):
    assert cli("history") == (0, "No questions saved yet.\n", "")
    save_questions(database_url, "alice", ["first?", "second?\nwith a second line"])
    save_questions(database_url, "bob", ["not alice's"])
    code, out, _ = cli("history")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].endswith("does not fit  2.0 GiB  second? with a second line")
    assert lines[1].endswith("fits  1.0 GiB  first?")
    data_ = json.loads(cli("history", "--json", "--limit", "1")[1])
    (latest,) = data_["queries"]
    assert latest["text"] == "second?\nwith a second line" and latest["verdict"] == "does_not_fit"
    assert latest["inputs"] == {"model": "qwen2.5-7b"} and latest["total_bytes"] == 2 << 30


def test_history_shows_per_device_what_was_spread_over_several(cli, database_url):
    """A job over two cards: the answer said what each must hold, and so does the history."""

    async def work(storage: Storage) -> None:
        user = await storage.users.ensure("local", "alice")
        await storage.queries.save(
            NewQuery(
                user_id=user.id,
                text="70b on 2x h100?",
                inputs={},
                verdict="fits",
                total_bytes=270 << 29,
                per_device_bytes=135 << 29,
            )
        )
        await storage.queries.save(
            NewQuery(
                user_id=user.id,
                text="7b on a 4090?",
                inputs={},
                verdict="fits",
                total_bytes=3 << 30,
                per_device_bytes=3 << 30,
            )
        )

    stored(database_url, work)
    lines = cli("history")[1].splitlines()
    assert lines[0].endswith("fits  3.0 GiB  7b on a 4090?")
    assert lines[1].endswith("fits  67.5 GiB per device  70b on 2x h100?")
    assert "135" not in lines[1]
    assert (
        cli("history", "--lang", "nl")[1]
        .splitlines()[1]
        .endswith("past  67,5 GiB per apparaat  70b on 2x h100?")
    )


def test_export_everything_as_json(cli, database_url):
    cli("profile", "set", "M3 Max 64GB")
    save_questions(database_url, "alice", ["q"])
    code, out, err = cli("export")
    exported = json.loads(out)
    assert code == 0 and err == ""
    assert exported["user"]["external_id"] == "alice"
    assert [p["name"] for p in exported["profiles"]] == ["m3 max"]
    assert [q["text"] for q in exported["queries"]] == ["q"]


def test_export_of_someone_unknown_is_empty(cli):
    code, out, err = cli("export")
    assert code == 0 and json.loads(out)["user"] is None
    assert err == "Nothing is stored about alice; the export is empty.\n"


def test_forget_without_a_terminal_needs_yes(cli, database_url):
    cli("profile", "set", "RTX 4090")
    code, out, err = cli("forget")
    assert code == 2 and out == ""
    one_line_error(err)
    assert "--yes" in err
    assert len(stored(database_url, lambda s: s.profiles.of_user(1))) == 1


def test_forget_with_yes_deletes_only_this_user(cli, database_url, monkeypatch):
    cli("profile", "set", "RTX 4090")
    save_questions(database_url, "alice", ["mine"])
    monkeypatch.setenv("LOGNAME", "bob")
    cli("profile", "set", "M3 Max 64GB")
    save_questions(database_url, "bob", ["bob's"])
    monkeypatch.setenv("LOGNAME", "alice")

    assert cli("forget", "--yes") == (0, "Deleted everything stored about alice.\n", "")

    assert json.loads(cli("export")[1])["user"] is None
    monkeypatch.setenv("LOGNAME", "bob")
    exported = json.loads(cli("export")[1])
    assert [q["text"] for q in exported["queries"]] == ["bob's"]
    assert len(exported["profiles"]) == 1


@pytest.mark.parametrize(
    ("typed", "code", "deleted"), [("y\n", 0, True), ("n\n", 1, False), ("", 1, False)]
)
def test_forget_asks_at_a_terminal(cli, database_url, monkeypatch, typed, code, deleted):
    cli("profile", "set", "RTX 4090")
    monkeypatch.setattr("sys.stdin", Terminal(typed))
    result, out, _ = cli("forget")
    assert result == code
    assert out.startswith("This deletes everything stored about alice: 1 hardware profile,")
    assert ("Deleted everything" in out) == deleted and ("Nothing deleted." in out) != deleted
    remaining = stored(database_url, lambda s: s.users.find("local", "alice"))
    assert (remaining is None) == deleted


def typed_lines() -> Path:
    """The chat's input history, as the chat would have left it."""
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("can I run 7b on a 4090?\n")
    return path


def test_forget_deletes_the_lines_typed_in_the_chat(cli):
    cli("profile", "set", "RTX 4090")
    path = typed_lines()
    assert cli("forget", "--yes")[0] == 0
    assert not path.exists()
    # Only typed lines, nothing in the database: still something to forget.
    path = typed_lines()
    assert cli("forget", "--yes") == (0, "Deleted everything stored about alice.\n", "")
    assert not path.exists()
    assert cli("forget", "--yes") == (0, "Nothing is stored about alice.\n", "")


@pytest.mark.parametrize(("typed", "kept"), [("y\n", False), ("n\n", True)])
def test_forget_at_a_terminal_names_the_typed_lines(cli, monkeypatch, typed, kept):
    path = typed_lines()
    monkeypatch.setattr("sys.stdin", Terminal(typed))
    out = cli("forget")[1]
    assert f"It also deletes the lines typed in llm-sizer chat ({path})." in out
    assert path.exists() == kept


def test_forget_in_dutch_accepts_ja(cli, monkeypatch):
    cli("profile", "set", "RTX 4090")
    monkeypatch.setattr("sys.stdin", Terminal("ja\n"))
    code, out, _ = cli("forget", "--lang", "nl")
    assert code == 0 and "Alles verwijderen? [j/N]" in out and "is verwijderd" in out


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        (
            "postgresql://bot:TopSecret99@127.0.0.1:1/llm",
            "cannot use the database at postgresql+asyncpg://bot:***@127.0.0.1:1/llm: "
            "Connection refused",
        ),
        (
            "sqlite:////proc/no/such/place.db",
            "cannot use the database at sqlite+aiosqlite:////proc/no/such/place.db: ",
        ),
        ("mysql://root:TopSecret99@db/x", "DATABASE_URL is not a database URL llm-sizer can use"),
    ],
)
def test_a_database_that_is_down_is_one_line(cli, monkeypatch, url, reason):
    monkeypatch.setenv("DATABASE_URL", url)
    for argv in (("profile", "list"), ("history",), ("export",), ("forget", "--yes")):
        code, out, err = cli(*argv)
        assert code == 2 and out == "", argv
        one_line_error(err)
        assert reason in err and "TopSecret99" not in err
