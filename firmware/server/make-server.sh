#!/bin/sh
# Make a Pyramids table server on any Debian machine (a Pi, a VPS), accounts included.
#
#   sudo firmware/server/make-server.sh [--certificates] HOST ACCOUNT...
#   sudo firmware/server/make-server.sh --remove ACCOUNT...
#
# HOST is the name (or address) the consoles reach the server at; one ACCOUNT per console
# (letters, digits and "-", at most 32). Installs Mosquitto, makes a CA and the server's
# certificate for HOST (both kept when there), an account with a random password for each
# ACCOUNT not there yet — or, with --certificates, a client certificate whose common name is the
# account (signed by the CA, its key made here) — the configuration (TLS only: passwords on port
# 8883, certificates on 8884) and the ACL (a console publishes under its own topics alone:
# etc/mosquitto/pyramids/acl), then restarts Mosquitto. For each new account it writes, under
# /etc/mosquitto/pyramids/consoles/ACCOUNT/, the files to copy to that console (the password or
# the certificate and its key, and the CA certificate) and prints the lines of its settings file.
# Re-running it adds accounts and changes nothing else. --remove takes accounts away (a lost
# console): the password deleted or the certificate revoked (the CRL Mosquitto checks), the files
# left for it deleted, Mosquitto restarted so that a session under way ends too. docs/network.md,
# "Tables beyond the home", says more.
#
# Environment (the tests make a server in a directory with these):
#   PYRAMID_ROOT         make it under this directory instead of /
#   PYRAMID_SKIP         steps to skip, space-separated: packages (apt-get), owner (chown to
#                        mosquitto), restart (systemctl)
#   PYRAMID_SERVER_PORT  the TLS port for passwords (default 8883)
#   PYRAMID_SERVER_CERTIFICATE_PORT  the TLS port for client certificates (default 8884)
#   PYRAMID_SERVER_BIND  the address to listen on (default: every address)
set -eu

root="${PYRAMID_ROOT:-}"
skip=" ${PYRAMID_SKIP:-} "
port="${PYRAMID_SERVER_PORT:-8883}"
certificate_port="${PYRAMID_SERVER_CERTIFICATE_PORT:-8884}"
bind="${PYRAMID_SERVER_BIND:-}"
here="$(cd "$(dirname "$0")" && pwd)"
dir="$root/etc/mosquitto/pyramids"

fail() {
    echo "make-server.sh: $*" >&2
    exit 2
}

mode=passwords
case "${1:-}" in
    --certificates | --remove) mode="${1#--}"; shift ;;
esac
if [ "$mode" = remove ]; then
    [ "$#" -ge 1 ] || fail "usage: make-server.sh --remove ACCOUNT..."
else
    [ "$#" -ge 2 ] || fail "usage: make-server.sh [--certificates] HOST ACCOUNT... | --remove ACCOUNT..."
    host="$1"
    shift
    case "$host" in
        *[!A-Za-z0-9.:-]* | "" | -*) fail "not a host name or address: '$host'" ;;
    esac
fi
for account in "$@"; do
    case "$account" in
        *[!a-z0-9-]* | "" | -*) fail "an account is lower-case letters, digits and '-': '$account'" ;;
    esac
    [ "${#account}" -le 32 ] || fail "an account has at most 32 characters: '$account'"
done
for number in "$port" "$certificate_port"; do
    case "$number" in
        *[!0-9]* | "") fail "not a port: '$number'" ;;
    esac
done

skipping() {
    case "$skip" in *" $1 "*) return 0 ;; esac
    return 1
}

has_account() {
    grep -q "^$1:" "$dir/passwords" || [ -f "$dir/consoles/$1/client.crt" ]
}

# OpenSSL's "ca" on the server's CA (etc/mosquitto/pyramids/ca.cnf), and the list of withdrawn
# certificates written again from its database.
ca() {
    PYRAMIDS_DIR="$dir" openssl ca -config "$dir/ca.cnf" -batch "$@" 2>/dev/null
}
write_crl() {
    ca -gencrl -out "$dir/crl.pem.new"
    mv "$dir/crl.pem.new" "$dir/crl.pem"
}

# Mosquitto reads the files as its own user, and takes changes at a restart.
finish() {
    if ! skipping owner; then
        chown -R mosquitto:mosquitto "$dir"
    fi
    if ! skipping restart; then
        systemctl restart mosquitto
    fi
}

if [ "$mode" = remove ]; then
    [ -f "$dir/passwords" ] || fail "no table server here ($dir): make one first"
    for account in "$@"; do
        has_account "$account" || fail "there is no account '$account': nothing removed"
    done
    for account in "$@"; do
        if grep -q "^$account:" "$dir/passwords"; then
            mosquitto_passwd -D "$dir/passwords" "$account"
        fi
        if [ -f "$dir/consoles/$account/client.crt" ]; then
            ca -revoke "$dir/consoles/$account/client.crt"
        fi
        rm -rf "$dir/consoles/$account"
        echo "make-server.sh: account '$account' removed"
    done
    write_crl
    finish
    exit 0
fi

if ! skipping packages; then
    apt-get update -qq
    apt-get install -y -qq mosquitto openssl >/dev/null
fi
mkdir -p "$dir/consoles"
chmod 750 "$dir"

# The CA the consoles trust, and the server's certificate for HOST (signed by it).
if [ ! -f "$dir/ca.key" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Pyramids table server CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
fi
if [ ! -f "$dir/server.crt" ]; then
    case "$host" in
        *[!0-9.]*) name="DNS:$host" ;;
        *) name="IP:$host" ;;
    esac
    printf 'subjectAltName=%s\n' "$name" >"$dir/server.ext"
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$host" -keyout "$dir/server.key" -out "$dir/server.csr" \
        2>/dev/null
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
        -days 825 -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
    rm -f "$dir/server.csr" "$dir/server.ext"
fi
chmod 600 "$dir/ca.key" "$dir/server.key"
cp "$here/etc/mosquitto/pyramids/ca.cnf" "$dir/ca.cnf"
if [ ! -f "$dir/revoked/index.txt" ]; then
    mkdir -p "$dir/revoked"
    : >"$dir/revoked/index.txt"
    echo 1000 >"$dir/revoked/crlnumber"
fi
write_crl

# One account a console, with a random password or a client certificate: kept when it is there
# (either way: a certificate's common name and a password's user are the same account to the ACL).
[ -f "$dir/passwords" ] || : >"$dir/passwords"
chmod 600 "$dir/passwords"
for account in "$@"; do
    if has_account "$account"; then
        echo "make-server.sh: account '$account' is there already: kept"
        continue
    fi
    mkdir -p "$dir/consoles/$account"
    cp "$dir/ca.crt" "$dir/consoles/$account/ca.crt"
    if [ "$mode" = certificates ]; then
        files="its certificate and key, and the CA certificate"
        installed="client.crt client.key ca.crt"
        (umask 077 && openssl req -newkey rsa:2048 -nodes -subj "/CN=$account" \
            -keyout "$dir/consoles/$account/client.key" -out "$dir/consoles/$account/client.csr" 2>/dev/null)
        printf 'extendedKeyUsage=clientAuth\n' >"$dir/consoles/$account/client.ext"
        openssl x509 -req -in "$dir/consoles/$account/client.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
            -CAcreateserial -days 3650 -extfile "$dir/consoles/$account/client.ext" \
            -out "$dir/consoles/$account/client.crt" 2>/dev/null
        rm -f "$dir/consoles/$account/client.csr" "$dir/consoles/$account/client.ext"
        signs_in="  cert_file = \"/etc/pyramid/server/client.crt\"
  key_file = \"/etc/pyramid/server/client.key\""
        reached="$certificate_port"
    else
        files="its password and the CA certificate"
        installed="password ca.crt"
        password="$(openssl rand -hex 16)"
        mosquitto_passwd -b "$dir/passwords" "$account" "$password"
        (umask 077 && printf '%s\n' "$password" >"$dir/consoles/$account/password")
        signs_in="  password_file = \"/etc/pyramid/server/password\""
        reached="$port"
    fi
    cat <<SETTINGS
For the console '$account' ($files are in $dir/consoles/$account/):
  1. Copy that folder to the console, from this server (CONSOLE: the console's address, its
     System page shows it; a sealed console: unseal it first, or the files are gone at the next boot):
       sudo scp -r $dir/consoles/$account pi@CONSOLE:
  2. On the console, install them readable by the console's user, from the copied folder:
       cd $account && sudo install -D -o root -g pyramid -m 640 $installed -t /etc/pyramid/server/
  3. Put in its settings file (/boot/firmware/pyramid.toml), then restart the console:
  [network]
  server = "mqtts://$host:$reached"
  user = "$account"
$signs_in
  ca_file = "/etc/pyramid/server/ca.crt"
SETTINGS
done

# The configuration and the ACL, with this server's listeners.
listener="listener $port${bind:+ $bind}"
certificate_listener="listener $certificate_port${bind:+ $bind}"
mkdir -p "$root/etc/mosquitto/conf.d"
sed -e "s|^# @LISTENER@\$|$listener|" -e "s|^# @CERTIFICATE_LISTENER@\$|$certificate_listener|" \
    -e "s|/etc/mosquitto/pyramids/|$dir/|g" \
    "$here/etc/mosquitto/conf.d/pyramids.conf" >"$root/etc/mosquitto/conf.d/pyramids.conf.new"
mv "$root/etc/mosquitto/conf.d/pyramids.conf.new" "$root/etc/mosquitto/conf.d/pyramids.conf"
cp "$here/etc/mosquitto/pyramids/acl" "$dir/acl"

finish
echo "make-server.sh: the table server listens on port $port (passwords) and $certificate_port (certificates);" \
    "consoles reach it as mqtts://$host:$port or mqtts://$host:$certificate_port"
echo "make-server.sh: open TCP ports $port and $certificate_port to the consoles: this machine's firewall" \
    "(with ufw: sudo ufw allow $port/tcp && sudo ufw allow $certificate_port/tcp), and the router's port" \
    "forwarding when the server is at home and friends play from elsewhere"
