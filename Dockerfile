# syntax=docker/dockerfile:1
# The llm-sizer image: `llm-sizer bot` by default; docker-compose.yml also runs `migrate`,
# `bot --webhook` and `set-webhook` from it.
#
#   docker build -t llm-sizer .
#   docker run --rm --env-file .env llm-sizer            # the bot, long polling
#   docker run --rm llm-sizer ask "can I run 7B on 24GB?"
#
# Two stages: durable-rules 2.0.28 has no wheels and compiles C/C++ from source, so the builder
# has build-essential and installs everything into /opt/venv; the final stage copies only that
# venv onto the same slim base (same /usr/local/bin/python3.12 the venv points to), without
# compilers.

# Pinned to a patch release, so that a rebuild months later gets the same Python and Debian;
# bump it deliberately (docker-compose.yml pins postgres and nginx the same way).
ARG PYTHON_IMAGE=python:3.12.12-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH
RUN python -m venv /opt/venv
WORKDIR /src
# Dependencies first, read from pyproject.toml, so that a code change does not recompile
# durable-rules: this layer is rebuilt only when pyproject.toml changes.
COPY pyproject.toml README.md LICENSE ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt
COPY estimator ./estimator
COPY rules ./rules
COPY bot ./bot
COPY storage ./storage
# The project itself, without the dev extras; then check that the installed set is consistent.
RUN pip install . && pip check

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="llm-sizer" \
      org.opencontainers.image.description="Will this model run or fine-tune on my hardware? Telegram bot and CLI." \
      org.opencontainers.image.licenses="MIT"
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PATH=/opt/venv/bin:$PATH
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /home/app --create-home \
       --shell /usr/sbin/nologin app
COPY --from=builder /opt/venv /opt/venv
# Numeric so that orchestrators can verify "runs as non-root" without reading /etc/passwd.
USER 10001:10001
# The working directory holds no .env (.dockerignore keeps it out of the image): configuration
# comes from the environment (docker-compose.yml's env_file). Hugging Face and matplotlib
# caches go to /home/app/.cache and /home/app/.config.
WORKDIR /home/app
# Build matplotlib's font cache now rather than on the first chart.
RUN python -c "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"
# No HEALTHCHECK here: the same image runs a one-shot migration, the polling bot (no port to
# probe) and the webhook server; docker-compose.yml gives the webhook service its /healthz check.
ENTRYPOINT ["llm-sizer"]
CMD ["bot"]
