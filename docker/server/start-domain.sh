#!/bin/bash
# Payara Server or GlassFish (docker/server/, docker/glassfish/) in the image's thread mode, with the
# admin password of a Docker secret. First start: creates the domain with that password, applies
# the mode's pre-boot file (rendered at image build; Micro names translated), the lab's settings, the
# product's own settings (product-settings.asadmin, as labkit's product_settings()) and the WAR, turns secure admin on, and
# only then marks the domain configured; a start that finds a domain without that mark (an earlier
# first start that failed or was killed half-way) creates it again. Then runs the server in the
# foreground. Refuses to start without a secret, or with an empty or well-known password.
set -euo pipefail

secret=${ADMIN_PASSWORD_FILE:-/run/secrets/payara_admin_password}
if [[ ! -r $secret ]]; then
  echo "loomlab: no admin password: give a Docker secret at $secret (see docker/README.md)" >&2
  exit 64
fi
password=$(head -n 1 "$secret" | tr -d '\r\n')
password=${password#AS_ADMIN_PASSWORD=}
case ${password,,} in
  admin | adminadmin | changeit | password)
    echo "loomlab: $secret holds a well-known default password; choose another" >&2; exit 64 ;;
esac
if (( ${#password} < 8 )); then
  echo "loomlab: the admin password in $secret must have at least 8 characters" >&2
  exit 64
fi

# SERVER_DIR: the distribution's top folder (docker/glassfish/Dockerfile sets it); the Payara image sets PAYARA_DIR.
payara=${SERVER_DIR:-${PAYARA_DIR:?neither SERVER_DIR nor PAYARA_DIR is set (not a LoomLab server image?)}}
asadmin=$payara/bin/asadmin
domain=${DOMAIN_NAME:-loomlab}
lab=/opt/loomlab
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 077
printf 'AS_ADMIN_PASSWORD=%s\n' "$password" > "$work/passwords"

domain_dir=$payara/glassfish/domains/$domain
configured=$domain_dir/loomlab-configured
if [[ -d $domain_dir && ! -f $configured ]]; then
  echo "loomlab: domain $domain was left half-configured by an earlier start; creating it again" >&2
  rm -rf "$domain_dir"
fi
if [[ ! -d $domain_dir ]]; then
  master=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
  printf 'AS_ADMIN_PASSWORD=%s\nAS_ADMIN_MASTERPASSWORD=%s\n' "$password" "$master" > "$work/create"
  "$asadmin" --interactive=false --user admin --passwordfile "$work/create" \
    create-domain --savemasterpassword=true "$domain"
  # The virtual modes name a LoomLab pool class: Grizzly loads it from the domain's lib folder.
  if grep -q '^set .*http-thread-pool\.classname=dev\.loomlab\.' "$lab/pre-boot-commands.asadmin"; then
    cp "$lab/virtual-pool.jar" "$domain_dir/lib/"
  fi
  {
    sed -E -f "$lab/micro-to-server.sed" "$lab/pre-boot-commands.asadmin" | grep -v -E '^[[:space:]]*(#|$)'
    # As ./lab does: one app listener (each listener builds its own pool: the TLS one would double
    # a bounded mode's bound), the product's own settings (no data grid, the JMS broker embedded), no 512 MB heap cap.
    echo "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener-2.enabled=false"
    grep -v -E '^[[:space:]]*(#|$)' "$lab/product-settings.asadmin"
    echo 'delete-jvm-options -Xmx512m'
    echo 'create-jvm-options -XX\\:MaxRAMPercentage=70.0'
    echo "deploy --force=true --name loomlab --contextroot / $lab/loomlab.war"
    # The console is reached through a published port, i.e. not from localhost: Payara allows that
    # only with secure admin (HTTPS), which takes effect at the restart below.
    echo "enable-secure-admin"
  } > "$work/configure.asadmin"
  "$asadmin" --interactive=false start-domain "$domain"
  status=0
  "$asadmin" --interactive=false --user admin --passwordfile "$work/passwords" \
    multimode --file "$work/configure.asadmin" 2>&1 | tee "$work/configure.out" || status=$?
  "$asadmin" --interactive=false stop-domain "$domain"
  # multimode exits 0 even when one of its commands failed.
  if (( status != 0 )) || grep -q -E '^Command [^ ]+ failed\.' "$work/configure.out"; then
    echo "loomlab: configuring domain $domain failed; removing it so the next start retries" >&2
    rm -rf "${domain_dir:?}"
    exit 1
  fi
  # Written last: a domain counts as configured only once every step above has succeeded.
  echo "${LOOMLAB_MODE:-unknown}" > "$configured"
fi

rm -rf "$work"
trap - EXIT
# Foreground, under tini: `docker stop` sends SIGTERM and the server shuts down cleanly.
exec "$asadmin" --interactive=false start-domain --verbose "$domain"
