# syntax=docker/dockerfile:1
# garnet's image. The wheel is built and installed by exactly the two steps CI checks
# (.ci/package runs them, then a Death Match with the installed `garnet`):
#   .ci/wheels DIR          garnet's wheel (its C search compiled) and its dependencies'
#   .ci/install VENV DIR    a new virtual environment with garnet from those wheels only
# Build: docker compose build (compose.yaml), or docker build -t garnet .

# ---- build: the wheels, with a C compiler that stays in this stage ----------------
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN .ci/wheels /wheels

# ---- run: Python, the fonts of the board images, garnet in /opt/garnet -------------
FROM python:3.11-slim
# Noto Sans CJK (names in Chinese, Japanese, Korean) and Noto Color Emoji, as
# .ci/fonts installs them; DejaVu Sans ships in the wheel.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    --mount=type=bind,from=build,source=/src/.ci,target=/ci \
    /ci/install /opt/garnet /wheels
# Bytecode once, here (the install skips it): quicker starts and health checks for a
# user who cannot write into /opt/garnet.
RUN python -m compileall -q /opt/garnet/lib

# Not root: the bot's own user, owning only its data volume.
RUN useradd --system --create-home --home-dir /data --uid 10001 --shell /usr/sbin/nologin garnet
ENV PATH=/opt/garnet/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/garnet.db \
    IMAGE_DIR=/data/images
USER garnet
WORKDIR /data
# The SQLite file (and the console's images); PostgreSQL needs none of it.
VOLUME /data

# Healthy while this instance holds fresh leases on its database (renewed every
# LEASE_SECONDS / 3): `garnet health` exits 1 with the reason otherwise.
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
    CMD ["garnet", "health"]
# SIGINT stops the bot cleanly: its matches' clocks stop and its leases are given back.
STOPSIGNAL SIGINT
# Migrations run at start (garnet migrate runs them alone, before several processes).
CMD ["garnet", "run"]
