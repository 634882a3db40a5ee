# PgBouncer for docker-compose.yml: Debian's package (the one the production smoke test runs natively) and the
# repository's config/pgbouncer.ini, started by ops/scripts/pgbouncer-start.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends pgbouncer postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY config/pgbouncer.ini /app/config/pgbouncer.ini
COPY ops/scripts/pgbouncer-start /app/ops/scripts/pgbouncer-start
USER postgres
EXPOSE 6432
CMD ["/app/ops/scripts/pgbouncer-start"]
