# syntax=docker/dockerfile:1
#
# beeuni: one static binary in a small image. The same image runs the
# controller and the executors (docker-compose.yml); see docs/deploy.md.
#
#   docker build -t beeuni .
#   docker run --rm beeuni --help

FROM golang:1.26 AS build
WORKDIR /src
# Modules first: this layer is reused until go.mod or go.sum change.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /beeuni ./cmd/beeuni

FROM alpine:3.22
# git and CA certificates: the controller fetches remote repositories
# (https:// URLs); busybox wget serves the health checks.
#
# Two users: the controller runs as beeuni (10001) and owns the signing key;
# executors, which run agents' tool code, run as sandbox (10002) and cannot
# read that key even where its folder is shared with them for the public key.
# The folders below are the mount points of the compose volumes: a new named
# volume takes the owner and mode of the folder it is mounted on.
RUN apk add --no-cache git ca-certificates \
 && addgroup -S -g 10001 beeuni && adduser -S -D -H -u 10001 -G beeuni -s /sbin/nologin beeuni \
 && addgroup -S -g 10002 sandbox && adduser -S -D -H -u 10002 -G sandbox -s /sbin/nologin sandbox \
 && mkdir -p /data /keys /sandbox \
 && chown beeuni:beeuni /data /keys && chmod 0700 /data && chmod 0755 /keys \
 && chown sandbox:sandbox /sandbox && chmod 0700 /sandbox
COPY --from=build /beeuni /usr/local/bin/beeuni
USER beeuni
# 7410: controller (merge hook, /status, /metrics); 7420: executor tool API.
EXPOSE 7410 7420
ENTRYPOINT ["/usr/local/bin/beeuni"]
CMD ["--help"]
