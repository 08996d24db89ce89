# Tabula: the app image. It runs the migrations, then uvicorn (through `tabula serve`).
#   docker build -t tabula .
#   docker run -p 8000:8000 -e DATABASE_URL=postgresql://user:pass@host:5432/tabula tabula
# Without DATABASE_URL it uses a SQLite file in /srv/tabula/data (mount a volume there).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TABULA_ROOT=/srv/tabula

WORKDIR /srv/tabula

# Dependencies and the two Python packages (the engines and the server).
COPY pyproject.toml README.md ./
COPY games ./games
COPY app ./app
RUN pip install .

# What the server reads at run time from TABULA_ROOT.
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

RUN useradd --system --uid 10001 --home-dir /srv/tabula tabula \
    && mkdir -p /srv/tabula/data && chown tabula /srv/tabula/data
USER tabula
WORKDIR /srv/tabula/data

EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]

# `tabula serve` migrates too, under a Postgres advisory lock: replicas starting together migrate once.
CMD ["sh", "-c", "tabula migrate && exec tabula serve --host 0.0.0.0 --port 8000"]
