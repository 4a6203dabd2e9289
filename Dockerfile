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
# With no arguments: the console chat (run with -it). `bot serve` arrives
# with the chat channels.
CMD []
