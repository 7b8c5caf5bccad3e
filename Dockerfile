# The image docker-compose.yml builds: the locked dependencies and the project.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# Pango and fonts for the PDF reports (WeasyPrint); pg_dump and pg_restore for
# `manage.py backup` and `restore --database`; nothing else from Debian.
RUN apt-get update && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.lock pyproject.toml ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY . .
RUN useradd --create-home arbiter && mkdir -p /app/var/media && chown -R arbiter /app/var
USER arbiter
EXPOSE 8000
# A WOC draft may search up to its pairing budget (30 s, x4 on "Search longer"): the
# worker's timeout outlasts it.
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--timeout", "150"]
