# The image docker-compose.yml builds: the locked dependencies and the project.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock pyproject.toml ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY . .
RUN useradd --create-home arbiter && mkdir -p /app/var && chown -R arbiter /app/var
USER arbiter
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000"]
