#!/bin/bash
# Container health: GET /api/info must answer 200. The Payara base images have no curl or wget,
# so the request goes through bash's /dev/tcp. Exit 0 = healthy.
port=${HTTP_PORT:-8080}
exec 3<>"/dev/tcp/127.0.0.1/${port}" 2>/dev/null || exit 1
printf 'GET /api/info HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
IFS= read -r -t 10 status_line <&3 || exit 1
exec 3<&-
[[ $status_line =~ ^HTTP/1\.[01]\ 200 ]]
