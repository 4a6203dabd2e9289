# Multi-stage build: a static bot binary on a minimal base, run as non-root.
#
# Where the registries are slow or blocked (campus networks in China), the
# build arguments point at mirrors (docs/deploy.md, "Docker"):
#   docker build \
#     --build-arg GOPROXY=https://goproxy.cn,direct \
#     --build-arg GO_IMAGE=docker.m.daocloud.io/library/golang:1.26-bookworm \
#     --build-arg RUNTIME_IMAGE=gcr.m.daocloud.io/distroless/static-debian12:nonroot \
#     -t labgpu-bot .
# GO_IMAGE and RUNTIME_IMAGE are the base images (the same images from
# another registry); GOPROXY is the Go module proxy ("" keeps Go's
# default, proxy.golang.org), GOSUMDB the checksum database ("" keeps
# sum.golang.org, which goproxy.cn also serves).
ARG GO_IMAGE=golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
ARG GOPROXY=""
ARG GOSUMDB=""
ENV GOPROXY=${GOPROXY} GOSUMDB=${GOSUMDB} CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same command builds the release binaries (docs/deploy.md, "Without
# Docker") and CI checks it (.ci/run).
RUN go build -trimpath -ldflags="-s -w" -o /out/bot ./cmd/bot \
 && mkdir -p /out/data

FROM ${RUNTIME_IMAGE}
COPY --from=build /out/bot /usr/local/bin/bot
# The embedded store lives in /data, owned by the non-root user (uid
# 65532): a named volume mounted there starts with that owner. A host
# directory bind-mounted there must belong to uid 65532 (chown -R
# 65532:65532 DIR), or run the container as the directory's owner
# (docker run --user "$(id -u):$(id -g)"; compose: user:).
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV BOT_DATA_DIR=/data
WORKDIR /data
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/bot"]
# Feishu (FEISHU_* env), webhooks, polling and alerts; /feishu/events,
# /healthz and /metrics on :8080 (BOT_HTTP_ADDR). `docker run IMAGE` with
# no arguments after the image name runs this; pass "console" for the
# console chat or "ask ..." for one answer (README.md, Docker). The admin
# listener (BOT_ADMIN_TOKEN) stays on the container's loopback: reach it
# with `docker exec` / `docker compose exec` (docs/operations.md).
EXPOSE 8080
# Liveness only (the process serves): a Redis or platform outage the bot
# rides out must not restart it. Readiness is /readyz (`bot health --ready`).
# `bot health` asks BOT_HTTP_ADDR (or the config's http.addr) on loopback.
HEALTHCHECK --interval=30s --timeout=6s --start-period=20s --retries=3 CMD ["/usr/local/bin/bot", "health"]
CMD ["serve"]
