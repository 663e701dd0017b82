#!/bin/sh
# Mounted into the nginx image's /docker-entrypoint.d/, which runs it before nginx starts.
# nginx.conf includes the file written here: `listen [::]:80;` where the kernel has IPv6 (the
# test the image's own 10-listen-on-ipv6-by-default.sh makes), else nothing, since on a host
# booted without IPv6 that listen line makes nginx fail to start.
set -eu
include=/etc/nginx/conf.d/listen-ipv6.inc
if [ -f /proc/net/if_inet6 ]; then
    echo 'listen [::]:80;' > "$include"
else
    : > "$include"
fi
