package io.ricochet.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Debian's {@code openssl s_client}, to see the alert a server ends a handshake with. */
final class OpensslClient {
    private static final Pattern ALERT = Pattern.compile("SSL alert number (\\d+)");

    private OpensslClient() {
    }

    /**
     * Connects to {@code address} over {@code protocol} ({@code TLSv1.2} or {@code TLSv1.3}), trusting {@code ca} and
     * presenting {@code client} (none if null), and returns the alert the server sent; fails if it sent none. Its
     * input stays open, so in TLS 1.3, where its side of the handshake ends first, it waits for the server's verdict.
     */
    static TlsServerTest.Alert alertReceived(InetSocketAddress address, String protocol, Path ca,
            DevCertificates.PemFiles client) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-quiet", "-no_ign_eof",
                protocol.equals("TLSv1.3") ? "-tls1_3" : "-tls1_2", "-CAfile", ca.toString(), "-connect",
                "127.0.0.1:" + address.getPort()));
        if (client != null) {
            command.addAll(List.of("-cert", client.certificate().toString(), "-key", client.privateKey().toString()));
        }
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try (InputStream err = p.getErrorStream()) {
            // It ends once the server's alert closes the connection; the test's timeout bounds a server that does not.
            String printed = new String(err.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = ALERT.matcher(printed);
            if (!m.find()) {
                throw new AssertionError("no alert from the server: " + printed);
            }
            return TlsServerTest.Alert.of(Integer.parseInt(m.group(1)));
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
