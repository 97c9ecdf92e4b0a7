# Bredon in a container: the README's install command, run as an unprivileged user, with the
# database on the /data volume. tests/bot/test_deployment.py checks that the install and run
# commands here are the README's. The install compiles the engine (README, "A faster engine") in
# a first stage that has a C compiler; the image takes only the installed /app from it, and
# .ci/build-image checks that its engine is compiled (`python -m tak build`).
# Python 3.11, the version CI tests (.ci/run runs on it).
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install --yes --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# Installed as root, so the bot's own user cannot change its code.
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY tak ./tak
COPY rendering ./rendering
COPY bot ./bot
COPY cogs ./cogs
COPY web ./web
RUN python3 -m venv .venv && .venv/bin/pip install -e .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # The database on the volume: created (`python -m bot init`) by the entry point at the
    # container's first start, and only for this path (deploy/container_entry.py).
    BREDON_DATABASE=/data/bredon.sqlite3 \
    # The health endpoint, inside the container only (publish it with BREDON_HEALTH_HOST=0.0.0.0).
    BREDON_HEALTH_PORT=8080 \
    BREDON_HEALTH_HOST=127.0.0.1

RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home bredon \
    && mkdir /data && chown bredon:bredon /data

# The same paths as in the build stage: the virtualenv and the editable install name /app.
WORKDIR /app
COPY --from=build /app /app
COPY deploy/container_entry.py ./

# The working directory is the volume: bredon.sqlite3 (BREDON_DATABASE above), the copies kept
# before migrations and any `backup` land there, and a .env there is read.
WORKDIR /data
VOLUME /data
USER bredon

HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["/app/.venv/bin/python", "-m", "bot", "health"]

# `docker run IMAGE` runs the bot; `docker run IMAGE sync`, `check`, `migrate`, `backup FILE` the
# others.
# container_entry.py runs `python -m bot` with them: after an exit that needs a person (2, 3, 4)
# the bot is not restarted by the restart policy, the container waits to be stopped (see there).
# It passes SIGTERM (`docker stop`) on: a clean stop, exit 0, within Docker's 10 s; the bot
# stops its own worker processes, so it needs no init.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/.venv/bin/python", "/app/container_entry.py"]
