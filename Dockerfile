# Multi-stage build: a static bot binary on a minimal base, run as non-root.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/bot ./cmd/bot

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bot /usr/local/bin/bot
# The embedded store lives here; mount a volume to keep it across restarts.
ENV BOT_DATA_DIR=/data
WORKDIR /data
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/bot"]
CMD ["serve"]
