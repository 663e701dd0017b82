"""The team deployment: docker-compose.yml, Dockerfile, .dockerignore, .env.example, nginx.

Read as text and YAML, no Docker needed; `config -q` runs only where a Compose binary is on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
ENV_EXAMPLE = ROOT / ".env.example"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
NGINX_IPV6 = ROOT / "deploy" / "nginx-ipv6.sh"
DEPLOY_FILES = [COMPOSE_FILE, DOCKERFILE, DOCKERIGNORE, ENV_EXAMPLE, NGINX_CONF, NGINX_IPV6]
APP_SERVICES = ["migrate", "bot", "webhook", "set-webhook"]
TELEGRAM_SERVICES = ["bot", "webhook", "set-webhook"]


def app_variables() -> set[str]:
    """Every variable the application reads: its settings classes, and the language."""
    from bot.telegram.settings import BotSettings
    from storage.settings import StorageSettings

    fields = {*BotSettings.model_fields, *StorageSettings.model_fields}
    return {name.upper() for name in fields} | {"LLM_SIZER_LANG"}


# ${VAR}, ${VAR:-default}, ${VAR:?error}; "$${VAR}" is an escaped dollar for the container's shell.
INTERPOLATION = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)")
# A Bot API token: the bot's numeric id, a colon, 35 characters of [A-Za-z0-9_-].
TELEGRAM_TOKEN = re.compile(r"\b\d{6,12}:[A-Za-z0-9_-]{30,}")


@pytest.fixture(scope="module")
def compose() -> dict:
    loaded = yaml.safe_load(COMPOSE_FILE.read_text())
    assert isinstance(loaded, dict)
    return loaded


@pytest.fixture(scope="module")
def services(compose: dict) -> dict:
    return compose["services"]


def documented_variables() -> set[str]:
    """Every VAR of .env.example, set (VAR=...) or shown commented out (# VAR=...)."""
    found = re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), flags=re.MULTILINE)
    return set(found)


def active_env_example() -> dict[str, str]:
    pairs = re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", ENV_EXAMPLE.read_text(), flags=re.MULTILINE)
    return dict(pairs)


def waits_for(service: dict, other: str, condition: str) -> bool:
    depends = service.get("depends_on") or {}
    return isinstance(depends, dict) and (depends.get(other) or {}).get("condition") == condition


def test_postgres_keeps_its_data_in_a_named_volume_and_has_a_healthcheck(
    compose: dict, services: dict
) -> None:
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:16")
    named = set(compose.get("volumes") or {})
    data = [v for v in postgres["volumes"] if v.split(":")[1] == "/var/lib/postgresql/data"]
    assert len(data) == 1
    assert data[0].split(":")[0] in named, "the data directory must be a named volume"
    check = postgres["healthcheck"]
    assert "pg_isready" in " ".join(check["test"])
    assert check["interval"] and check["retries"] >= 3
    assert "ports" not in postgres, "PostgreSQL is reached over the compose network only"


def test_postgres_credentials_come_from_the_environment(services: dict) -> None:
    env = services["postgres"]["environment"]
    assert env["POSTGRES_USER"].startswith("${POSTGRES_USER:-")
    assert env["POSTGRES_DB"].startswith("${POSTGRES_DB:-")
    # Required, and without a default: no password is written into the compose file.
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert "${POSTGRES_PASSWORD:-" not in COMPOSE_FILE.read_text()


def test_migrate_runs_once_after_postgres_is_healthy(services: dict) -> None:
    migrate = services["migrate"]
    assert migrate["command"] == ["migrate"]
    assert waits_for(migrate, "postgres", "service_healthy")
    assert migrate["restart"] == "no"
    assert "profiles" not in migrate, "migrations run in every mode"


@pytest.mark.parametrize("name", ["bot", "webhook"])
def test_the_bot_starts_only_after_the_migration_succeeded(services: dict, name: str) -> None:
    service = services[name]
    assert waits_for(service, "migrate", "service_completed_successfully")
    assert service["restart"] == "unless-stopped"
    assert "postgresql+asyncpg://" in service["environment"]["DATABASE_URL"]
    assert "@postgres:5432/" in service["environment"]["DATABASE_URL"]


def test_polling_and_webhook_never_run_together(services: dict) -> None:
    bot, webhook = services["bot"], services["webhook"]
    assert bot["command"] == ["bot"]
    assert webhook["command"] == ["bot", "--webhook"]
    assert bot["profiles"] == ["polling"]
    for name in ("webhook", "proxy", "set-webhook"):
        assert services[name]["profiles"] == ["webhook"], name
    # The documented default is polling (COMPOSE_PROFILES in .env).
    assert active_env_example()["COMPOSE_PROFILES"] == "polling"


def test_webhook_runs_two_replicas_without_a_host_port(services: dict) -> None:
    webhook = services["webhook"]
    assert webhook["deploy"]["replicas"] == 2
    assert "ports" not in webhook
    assert "container_name" not in webhook, "a fixed name would forbid replicas"
    assert webhook["environment"]["TELEGRAM_WEBHOOK_PORT"] == "8080"
    assert "/healthz" in " ".join(webhook["healthcheck"]["test"])


def test_only_the_proxy_publishes_a_port(services: dict) -> None:
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["ports"] == ["${WEBHOOK_HOST_PORT:-8080}:80"]
    mounts = [v.split(":") for v in proxy["volumes"]]
    assert ["./deploy/nginx.conf", "/etc/nginx/conf.d/default.conf", "ro"] in mounts
    conf = NGINX_CONF.read_text()
    assert "http://webhook:8080" in conf
    assert "resolver 127.0.0.11" in conf, "re-resolve so that every replica gets requests"


def nginx_directives() -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in NGINX_CONF.read_text().splitlines())
    return [line for line in lines if line]


def test_nginx_retries_a_post_on_the_next_replica() -> None:
    """Telegram's updates are POSTs: nginx passes a failed one to the next replica only with
    `non_idempotent` (safe: an update is claimed once in the database)."""
    (retry,) = [d for d in nginx_directives() if d.startswith("proxy_next_upstream ")]
    assert "non_idempotent" in retry.rstrip(";").split()


def test_nginx_listens_on_ipv6_only_where_the_container_has_it(services: dict) -> None:
    directives = nginx_directives()
    assert "listen 80;" in directives
    assert not any(d.startswith("listen [::]") for d in directives)
    assert "include /etc/nginx/conf.d/listen-ipv6.inc;" in directives
    mounts = [v.split(":") for v in services["proxy"]["volumes"]]
    assert ["./deploy/nginx-ipv6.sh", "/docker-entrypoint.d/15-llm-sizer-ipv6.sh", "ro"] in mounts
    # The image's entrypoint runs only executable scripts.
    assert os.access(NGINX_IPV6, os.X_OK)


@pytest.mark.parametrize("has_ipv6", [True, False])
def test_the_ipv6_script_writes_the_listen_line_only_with_ipv6(
    tmp_path: Path, has_ipv6: bool
) -> None:
    """The script, run by sh with its two paths pointed into a temporary folder."""
    proc = tmp_path / "if_inet6"
    if has_ipv6:
        proc.write_text("00000000000000000000000000000001 01 80 10 80       lo\n")
    include = tmp_path / "listen-ipv6.inc"
    script = NGINX_IPV6.read_text()
    assert script.count("/proc/net/if_inet6") == 1
    assert script.count("/etc/nginx/conf.d/listen-ipv6.inc") == 1
    script = script.replace("/proc/net/if_inet6", str(proc)).replace(
        "/etc/nginx/conf.d/listen-ipv6.inc", str(include)
    )
    subprocess.run(["sh", "-c", script], check=True, timeout=10)
    assert include.read_text() == ("listen [::]:80;\n" if has_ipv6 else "")


# A tag with a full version (postgres:16.10-alpine, python:3.12.12-slim-bookworm) or a digest.
PINNED = re.compile(
    r"^[\w./-]+:\d+\.\d+(\.\d+)?[\w.-]*(@sha256:[0-9a-f]{64})?$|@sha256:[0-9a-f]{64}$"
)


def test_base_images_are_pinned(services: dict) -> None:
    (python_image,) = re.findall(r"^ARG PYTHON_IMAGE=(\S+)$", DOCKERFILE.read_text(), re.M)
    images = [python_image, services["postgres"]["image"], services["proxy"]["image"]]
    for image in images:
        assert PINNED.match(image), image
        assert not image.split(":")[1].startswith(("latest", "alpine", "slim")), image


def test_set_webhook_is_a_one_shot(services: dict) -> None:
    service = services["set-webhook"]
    command = [*service.get("entrypoint", ["llm-sizer"]), *service.get("command", [])]
    assert command == ["llm-sizer", "set-webhook"]
    assert service["restart"] == "no"


def test_every_compose_variable_is_documented_in_env_example() -> None:
    used = set(INTERPOLATION.findall(COMPOSE_FILE.read_text()))
    assert used >= {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "WEBHOOK_HOST_PORT"}
    assert used - documented_variables() == set()


def test_every_app_variable_is_documented_in_env_example() -> None:
    assert app_variables() >= {"TELEGRAM_BOT_TOKEN", "DATABASE_URL", "TELEGRAM_WEBHOOK_SECRET"}
    assert app_variables() - documented_variables() == set()


def test_every_app_variable_reaches_a_container() -> None:
    """No env_file: a setting reaches the app only when a service names it."""
    services = yaml.safe_load(COMPOSE_FILE.read_text())["services"]
    passed = {name for s in APP_SERVICES for name in services[s].get("environment") or {}}
    assert app_variables() - passed == set()


def test_the_app_services_share_one_image_built_once(services: dict) -> None:
    images = {services[name]["image"] for name in APP_SERVICES}
    builds = {str(services[name].get("build")) for name in APP_SERVICES}
    assert images == {"llm-sizer:local"}
    assert builds == {"."}


def test_no_container_reads_all_of_env(services: dict) -> None:
    assert all("env_file" not in service for service in services.values())


# The secrets, and who needs each: the database password (inside DATABASE_URL, and the role's
# own POSTGRES_PASSWORD), the bot token, the webhook secret.
NEEDED_SECRETS = {
    "postgres": {"database"},
    "migrate": {"database"},
    "bot": {"database", "token"},
    "webhook": {"database", "token", "webhook_secret"},
    "set-webhook": {"token", "webhook_secret"},
    "proxy": set(),
}


def secrets_of(service: dict) -> set[str]:
    env = service.get("environment") or {}
    found = set()
    if "POSTGRES_PASSWORD" in env or "${POSTGRES_PASSWORD" in str(env.get("DATABASE_URL")):
        found.add("database")
    if "TELEGRAM_BOT_TOKEN" in env:
        found.add("token")
    if "TELEGRAM_WEBHOOK_SECRET" in env:
        found.add("webhook_secret")
    return found


@pytest.mark.parametrize("name", sorted(NEEDED_SECRETS))
def test_each_container_gets_only_the_secrets_it_needs(services: dict, name: str) -> None:
    assert secrets_of(services[name]) == NEEDED_SECRETS[name]


def required_variables() -> set[str]:
    """The variables docker-compose.yml interpolates as ${VAR:?message}: Compose refuses to run
    when one is unset or empty."""
    return set(re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*):\?", COMPOSE_FILE.read_text()))


def test_an_unchanged_copy_of_env_example_is_refused() -> None:
    """Each required value is empty in .env.example, so `cp .env.example .env` alone makes Compose
    stop with its message instead of starting with a placeholder password or token."""
    assert required_variables() == {"POSTGRES_PASSWORD", "TELEGRAM_BOT_TOKEN"}
    active = active_env_example()
    for name in required_variables():
        assert active[name] == "", name


def test_env_example_values_are_plain() -> None:
    # No comment after a value: Compose v1 and `docker run --env-file` would keep it.
    for name, value in active_env_example().items():
        assert "#" not in value, name
        assert value == value.strip(), name


@pytest.mark.parametrize("path", DEPLOY_FILES, ids=lambda p: p.name)
def test_no_secret_is_written_in_the_deployment_files(path: Path) -> None:
    text = path.read_text()
    assert not TELEGRAM_TOKEN.search(text)
    # A password in a database URL: only interpolation or the placeholder PASSWORD.
    assert not re.search(r"postgres(ql)?(\+\w+)?://[^:/\s]+:(?!\$\{|PASSWORD@)[^@\s]+@", text)


def dockerfile_stages() -> list[list[str]]:
    """The Dockerfile's instructions (continuations joined, comments dropped), per stage."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines()]
    stages: list[list[str]] = []
    for line in lines:
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            stages.append([])
        if stages:
            stages[-1].append(line)
    return stages


def test_the_dockerfile_builds_in_one_stage_and_runs_in_a_slim_one() -> None:
    stages = dockerfile_stages()
    assert len(stages) >= 2
    assert "ARG PYTHON_IMAGE=python:3.12." in DOCKERFILE.read_text()
    builder, final = stages[0], stages[-1]
    assert any("build-essential" in line for line in builder)
    assert any(re.search(r"pip install \.(\s|$)", line) for line in builder)
    assert "[dev]" not in DOCKERFILE.read_text()
    final_text = "\n".join(final)
    assert final[0].split()[1] == "${PYTHON_IMAGE}"
    for compiler in ("build-essential", "gcc", "g++", "apt-get install"):
        assert compiler not in final_text, compiler
    assert "COPY --from=builder /opt/venv /opt/venv" in final_text


def test_the_image_runs_llm_sizer_as_a_non_root_user() -> None:
    final = dockerfile_stages()[-1]
    users = [line.split(None, 1)[1] for line in final if line.upper().startswith("USER ")]
    assert users, "the final stage must set USER"
    assert users[-1].split(":")[0] not in {"root", "0"}
    assert 'ENTRYPOINT ["llm-sizer"]' in final
    assert 'CMD ["bot"]' in final
    assert any("PYTHONUNBUFFERED=1" in line for line in final)


def test_dockerignore_sends_only_the_packages() -> None:
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert patterns[0] == "*", "exclude everything, then re-include what the build needs"
    included = {p[1:].rstrip("/") for p in patterns if p.startswith("!")}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {
        p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert included == packages | {"pyproject.toml", "README.md", "LICENSE"}
    for copied in packages:
        assert f"COPY {copied} ./{copied}" in DOCKERFILE.read_text()
    for kept_out in (".env", ".venv", ".git", "tests", "bench/results", "**/__pycache__"):
        assert kept_out in patterns


def compose_binary() -> list[str] | None:
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run(
            [docker, "compose", "version"], capture_output=True, text=True, timeout=20
        )
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def compose_config(tmp_path: Path, profile: str, filled: bool) -> subprocess.CompletedProcess:
    """`docker compose config -q` on a copy with .env from .env.example, the required values
    filled in or not, so that a real .env in the checkout is neither needed nor read."""
    binary = compose_binary()
    if binary is None:
        pytest.skip("neither `docker compose` (v2 plugin) nor `docker-compose` is on PATH")
    shutil.copy(COMPOSE_FILE, tmp_path / "docker-compose.yml")
    shutil.copy(DOCKERFILE, tmp_path / "Dockerfile")
    shutil.copytree(NGINX_CONF.parent, tmp_path / "deploy")
    env_text = ENV_EXAMPLE.read_text()
    if filled:
        env_text = env_text.replace("\nPOSTGRES_PASSWORD=\n", "\nPOSTGRES_PASSWORD=0123abcd\n")
        env_text = env_text.replace(
            "\nTELEGRAM_BOT_TOKEN=\n", "\nTELEGRAM_BOT_TOKEN=123456:not-a-real-token\n"
        )
    (tmp_path / ".env").write_text(env_text)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("COMPOSE_", "POSTGRES_", "TELEGRAM_", "WEBHOOK_"))
    }
    return subprocess.run(
        [*binary, "--profile", profile, "config", "-q"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("profile", ["polling", "webhook"])
def test_compose_config_is_valid(tmp_path: Path, profile: str) -> None:
    result = compose_config(tmp_path, profile, filled=True)
    assert result.returncode == 0, result.stderr


def test_compose_refuses_env_example_unchanged(tmp_path: Path) -> None:
    result = compose_config(tmp_path, "polling", filled=False)
    assert result.returncode != 0
    assert "POSTGRES_PASSWORD" in result.stderr or "TELEGRAM_BOT_TOKEN" in result.stderr
