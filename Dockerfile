# Multi-stage build: a static bot binary on a minimal base, run as non-root.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/bot ./cmd/bot \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bot /usr/local/bin/bot
# The embedded store lives in /data, owned by the non-root user; mount a
# volume there to keep it across restarts.
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV BOT_DATA_DIR=/data
WORKDIR /data
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/bot"]
# Feishu (FEISHU_* env), webhooks, polling and alerts; /feishu/events,
# /healthz and /metrics on :8080. `docker run IMAGE` with no arguments
# after the image name runs this; pass "console" for the console chat or
# "ask ..." for one answer (README.md, Docker).
EXPOSE 8080
# Liveness only (the process serves): a Redis or platform outage the bot
# rides out must not restart it. Readiness is /readyz (`bot health --ready`).
HEALTHCHECK --interval=30s --timeout=6s --start-period=20s --retries=3 CMD ["/usr/local/bin/bot", "health"]
CMD ["serve"]
