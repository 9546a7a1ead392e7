# Sourced by the QUIC benches (quic-vs-tls.sh, quic-crr.sh, quic-loss.sh), from the repository's root.
#
# start_quic_echo_server OUT [FLAG ...]: writes a throwaway P-256 certificate for localhost and 127.0.0.1 to
# OUT/cert.pem, its key in PKCS#8 (as the server reads it) to OUT/key.pem, and starts one echo-server
# (--io-threads 1) serving them on an ephemeral QUIC port, with the flags given added. Once it listens, SERVER is its
# pid, QUIC its QUIC HOST:PORT and TLS its TLS one (empty without --tls-port). Set the caller's EXIT trap first.
start_quic_echo_server() {
  local out=$1
  shift
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$out/key.pem" -out "$out/cert.pem" 2> /dev/null
  java -jar echo-server/target/echo-server.jar --tcp-port -1 --udp-port 0 --rpc-port -1 --metrics-port -1 \
    --io-threads 1 --quic-port 0 --tls-cert "$out/cert.pem" --tls-key "$out/key.pem" "$@" \
    > "$out/server.out" 2> "$out/server.err" &
  SERVER=$!
  for _ in $(seq 300); do grep -q "listening quic" "$out/server.out" 2>/dev/null && break; sleep 0.1; done
  QUIC=$(sed -n 's/^listening quic \(.*\)$/\1/p' "$out/server.out")
  TLS=$(sed -n 's/^listening tls \(.*\)$/\1/p' "$out/server.out")
  if [ -z "$QUIC" ]; then
    echo "echo-server did not start; see $out/server.err" >&2
    return 1
  fi
}
