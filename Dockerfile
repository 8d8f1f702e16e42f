# The paylink image: the folder scripts/release builds (bin/paylink, share/paylink/dist), copied
# onto /usr of a Debian base, run as a non-root user, configured by PAYLINK_* variables only,
# its SQLite database (when PAYLINK_DB is not a postgres:// URL) in the volume /var/lib/paylink.
#   scripts/release && podman build -t paylink .        (docker build works the same)
# No RUN step downloads anything: the base needs no package (paylink's TLS clients carry
# Mozilla's roots, webpki-roots, so no ca-certificates; --pix-ca names a bank's private root),
# and the image's health check is the binary's own `paylink healthcheck` (the base has no curl).
# BASE: a registry's debian:bookworm-slim, or one made locally with debootstrap (scripts/test-release).
ARG BASE=debian:bookworm-slim
FROM ${BASE}

# The user the server runs as, owning only its data folder; the binary and the widget stay
# root's, read-only to it.
RUN useradd --system --user-group --uid 10001 --home-dir /var/lib/paylink --no-create-home \
        --shell /usr/sbin/nologin paylink \
    && mkdir -p /var/lib/paylink \
    && chown paylink:paylink /var/lib/paylink \
    && chmod 700 /var/lib/paylink

COPY target/release-bundle/ /usr/

# Every setting of `paylink serve` has its PAYLINK_<FLAG> variable (docs/operations.md); these
# are the image's own. Give the rest with `-e` / compose's `environment:` (or `PAYLINK_CONFIG`,
# a TOML file mounted read-only), secrets as files (`PAYLINK_*_FILE`).
ENV PAYLINK_LISTEN=0.0.0.0:8080 \
    PAYLINK_DB=/var/lib/paylink/paylink.db \
    PAYLINK_DIST=/usr/share/paylink/dist

USER paylink
WORKDIR /var/lib/paylink
VOLUME /var/lib/paylink
EXPOSE 8080
# `paylink healthcheck` asks GET /healthz on PAYLINK_LISTEN (loopback when it is 0.0.0.0).
# podman keeps HEALTHCHECK in the docker image format only: `podman build --format docker`.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["paylink", "healthcheck", "--timeout", "4s"]
# SIGTERM (the default) drains requests and stops the workers (docs/operations.md).
ENTRYPOINT ["paylink"]
CMD ["serve"]
