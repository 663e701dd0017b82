"""`llm-sizer profile set|show|list|use|delete`: the local user's saved hardware."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..i18n import t
from .storage_context import Context, Work, run_with_storage, when

# Storage pulls in SQLAlchemy; importing it only when a command runs keeps `llm-sizer estimate`
# and `--help` as fast as before.
if TYPE_CHECKING:
    from storage.schemas import Profile, User


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Adds `profile` and its actions to the CLI's subcommands."""
    # --lang goes on each action: on `profile` too, an action's default would overwrite it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")
    p = subparsers.add_parser("profile", help="your saved hardware: set, show, list, use, delete")
    p.set_defaults(func=run)
    actions = p.add_subparsers(dest="profile_command", required=True, metavar="ACTION")
    s = actions.add_parser(
        "set", parents=[common], help='save hardware: "RTX 4090, 64GB RAM", "M3 Max 64GB"'
    )
    s.add_argument("text", help='the hardware in words, e.g. "2x RTX 3090 + 128 GB RAM"')
    s.add_argument("--name", help='profile name, e.g. laptop or "lab server" (default: derived)')
    s.add_argument("--default", action="store_true", help="make it the default profile")
    show = actions.add_parser("show", parents=[common], help="one profile (default: the default)")
    show.add_argument("name", nargs="?", help="profile name")
    show.add_argument("--json", action="store_true", help="print the profile as JSON")
    listing = actions.add_parser("list", parents=[common], help="all your profiles")
    listing.add_argument("--json", action="store_true", help="print the profiles as JSON")
    use = actions.add_parser("use", parents=[common], help="make a profile the default")
    use.add_argument("name", help="profile name")
    delete = actions.add_parser("delete", parents=[common], help="delete a profile")
    delete.add_argument("name", help="profile name")


def run(args: argparse.Namespace) -> int:
    return run_with_storage(args, _ACTIONS[args.profile_command])


async def _set(s: Context) -> int:
    from ..profile_text import describe, parse

    parsed = parse(s.args.text)
    user = await s.storage.users.ensure("local", s.os_user)
    name = s.args.name if s.args.name is not None else parsed.suggested_name()
    existed = await s.storage.profiles.get(user.id, name) is not None
    profile = await s.storage.profiles.save(
        user.id, name, parsed.hardware(), text=s.args.text, make_default=s.args.default
    )
    hardware = describe(profile.hardware, s.lang)
    if existed:
        print(t("profile.updated", s.lang, name=profile.name, hardware=hardware))
    else:
        print(t("profile.saved", s.lang, name=profile.name, hardware=hardware))
    if profile.is_default:
        print(t("profile.now_default", s.lang, name=profile.name))
    return 0


async def _show(s: Context) -> int:
    if s.args.name is not None:
        user = await _profile_owner(s)
        profile = await s.storage.profiles.named(user.id, s.args.name)
    else:
        found = await s.storage.users.find("local", s.os_user)
        default = None if found is None else await s.storage.profiles.default(found.id)
        if default is None:
            print(t("profile.none", s.lang))
            return 1
        profile = default
    if s.args.json:
        print(profile.model_dump_json(indent=2))
    else:
        print(_show_text(profile, s.lang))
    return 0


async def _profile_owner(s: Context) -> User:
    """The terminal's user, for a command about a profile they named: one who was never seen
    has none."""
    from storage import StorageError

    user = await s.storage.users.find("local", s.os_user)
    if user is None:
        raise StorageError("profile_none")
    return user


def _show_text(profile: Profile, lang: str) -> str:
    from ..profile_text import describe

    marker = t("profile.default_marker", lang) if profile.is_default else ""
    lines = [
        t("profile.show_title", lang, name=profile.name, default=marker).rstrip(),
        t("profile.show_hardware", lang, hardware=describe(profile.hardware, lang)),
    ]
    if profile.text:
        lines.append(t("profile.show_text", lang, text=profile.text))
    lines.append(t("profile.show_changed", lang, when=when(profile.updated_at)))
    return "\n".join(lines)


async def _list(s: Context) -> int:
    from ..profile_text import list_line

    user = await s.storage.users.find("local", s.os_user)
    profiles = [] if user is None else await s.storage.profiles.of_user(user.id)
    if s.args.json:
        print(json.dumps([p.model_dump(mode="json") for p in profiles], indent=2))
        return 0
    if not profiles:
        print(t("profile.none", s.lang))
        return 0
    for p in profiles:
        print(list_line(p, s.lang))
    return 0


async def _use(s: Context) -> int:
    user = await _profile_owner(s)
    profile = await s.storage.profiles.use(user.id, s.args.name)
    print(t("profile.now_default", s.lang, name=profile.name))
    return 0


async def _delete(s: Context) -> int:
    user = await _profile_owner(s)
    before = await s.storage.profiles.get(user.id, s.args.name)
    default = await s.storage.profiles.delete(user.id, s.args.name)
    print(t("profile.deleted", s.lang, name=before.name if before else s.args.name))
    if default is None:
        print(t("profile.none_left", s.lang))
    elif before is not None and before.is_default:
        print(t("profile.now_default", s.lang, name=default.name))
    return 0


_ACTIONS: dict[str, Work] = {
    "set": _set,
    "show": _show,
    "list": _list,
    "use": _use,
    "delete": _delete,
}
