# The web app and the Celery worker (one image, two commands: see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN useradd --create-home --uid 1000 allfours

COPY . /app
# Editable, so that BASE_DIR (templates/, static/) stays /app.
RUN pip install -e . \
    && DJANGO_PRODUCTION=1 DJANGO_SECRET_KEY=collectstatic-only-not-a-real-secret-key-0123456789abcdef \
       DJANGO_ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput \
    && chown -R allfours /app

USER allfours
EXPOSE 8000
# bind 0.0.0.0:8000, 3 workers, the access log on stdout with entry tokens redacted: config/gunicorn.conf.py
CMD ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi:application"]
