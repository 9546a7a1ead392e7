package io.ricochet.examples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both images, built and run as a restricted pod runs them: Ricochet's ({@code ricochet/ricochet:0.1.0}, the root
 * Dockerfile) and the example's ({@code example/ricochet-kv:0.1.0}, built {@code FROM} it). Every container is
 * read-only, with a {@code noexec} {@code /tmp}, user 10001, no capabilities, no new privileges, a memory limit, and the
 * host's network (loopback only). Where no Docker engine can run (no root to install or start one, no Debian mirror),
 * the test is skipped with the one line {@code docker/stand-in-base.sh} printed.
 */
@Timeout(900)
class ContainerImagesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String DOCKER = "/usr/bin/docker";
    private static final String IMAGE = "ricochet/ricochet:0.1.0";
    private static final String EXAMPLE = "example/ricochet-kv:0.1.0";
    private static final Pattern LISTENING = Pattern.compile("listening (tcp|metrics) (?:http://)?([0-9.]+:[0-9]+)");
    private static final List<String> started = new ArrayList<>();
    /** The echo server's class-data archive and where the JVM's warnings go, as its deployment gives them. */
    private static final List<String> ECHO_ARCHIVE = List.of("-XX:SharedArchiveFile=/app/cds/echo-server.jsa",
            "-Xlog:disable", "-Xlog:all=warning:stderr");

    private record Ran(int exit, String out) {
    }

    private static Ran run(long seconds, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        // Read while it runs: a build's output would fill the pipe and stall it.
        var reader = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        });
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not end within " + seconds + " s: " + reader.getNow(""));
        }
        return new Ran(p.exitValue(), reader.join());
    }

    private static Ran docker(long seconds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(DOCKER));
        command.addAll(List.of(args));
        return run(seconds, command);
    }

    /** The settings of the pods' securityContext and resources, as {@code docker run} flags. */
    private static List<String> restricted(String memory) {
        return List.of("--network", "host", "--read-only", "--tmpfs", "/tmp:rw,noexec,nosuid,size=64m", "--user",
                "10001:10001", "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--memory", memory);
    }

    private static Ran runIn(String image, String memory, long seconds, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("run", "--rm"));
        command.addAll(restricted(memory));
        command.add(image);
        command.addAll(List.of(args));
        return docker(seconds, command.toArray(String[]::new));
    }

    /** Starts a server container detached, with {@code java} and its options as the manifests give them. */
    private static String server(String image, String name, String... javaArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of("run", "-d", "--name", name));
        command.addAll(restricted("256m"));
        command.addAll(List.of("--entrypoint", "java", image, "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=40",
                "-Djava.library.path=/app/native"));
        if (List.of(javaArgs).contains("/app/echo-server.jar")) {
            command.addAll(ECHO_ARCHIVE);
        }
        command.addAll(List.of(javaArgs));
        Ran r = docker(60, command.toArray(String[]::new));
        assertEquals(0, r.exit(), r.out());
        started.add(name);
        return name;
    }

    /** The address {@code kind} ({@code tcp}, {@code metrics}) that the server in {@code container} says it listens on. */
    private static String listening(String container, String kind) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String logs = "";
        while (System.nanoTime() < deadline) {
            logs = docker(30, "logs", container).out();
            Matcher m = LISTENING.matcher(logs);
            while (m.find()) {
                if (m.group(1).equals(kind)) {
                    return m.group(2);
                }
            }
            if (!docker(30, "inspect", "--format", "{{.State.Running}}", container).out().strip().equals("true")) {
                fail(container + " exited: " + logs);
            }
            Thread.onSpinWait();
        }
        return fail(container + " never said it listens on " + kind + ": " + logs);
    }

    /**
     * On a fresh machine this installs an engine and makes a base from Debian's packages, then trains each jar's
     * class-data archive: minutes, well past the default timeout of a lifecycle method, which {@code @Timeout} on the
     * class does not lift. Each step has its own bound.
     */
    @BeforeAll
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    static void buildImages() throws Exception {
        Ran ready = run(900, List.of(ROOT.resolve("docker/stand-in-base.sh").toString()));
        Assumptions.assumeTrue(ready.exit() != 3, ready.out().strip());
        assertEquals(0, ready.exit(), ready.out());
        Ran root = run(600, List.of("env", "DOCKER_BUILDKIT=1", DOCKER, "build", "--network", "host", "-q", "-t", IMAGE,
                ROOT.toString()));
        assertEquals(0, root.exit(), "the root Dockerfile: " + root.out());
        Ran example = run(600, List.of("env", "DOCKER_BUILDKIT=1", DOCKER, "build", "--network", "host", "-q", "-t",
                EXAMPLE, ROOT.resolve("examples").toString()));
        assertEquals(0, example.exit(), "examples/Dockerfile: " + example.out());
    }

    @AfterAll
    static void removeContainers() throws Exception {
        for (String name : started) {
            docker(60, "rm", "-f", name);
        }
    }

    @Test
    void theEchoServerServesFromItsImageAndTheGeneratorLoadsItFromAnother() throws Exception {
        String echo = server(IMAGE, "ricochet-it-echo-" + ProcessHandle.current().pid(), "-jar",
                "/app/echo-server.jar", "--host", "127.0.0.1", "--tcp-port", "0", "--udp-port", "-1", "--rpc-port",
                "-1", "--metrics-host", "127.0.0.1", "--metrics-port", "0");
        String target = listening(echo, "tcp");
        String metrics = "http://" + listening(echo, "metrics") + "/metrics";

        Ran alone = runIn(IMAGE, "512m", 120, "echo", "--target", target, "--scrape", metrics, "--connections", "10",
                "--pipeline", "4", "--duration", "3s", "--json");
        assertEquals(0, alone.exit(), alone.out());
        JsonNode s = JSON.readTree(alone.out().substring(alone.out().indexOf('{')));
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertEquals(0, s.get("bad").asLong() + s.get("errors").asLong(), s.toString());
        assertEquals("epoll", s.get("io").asText(), "natives loaded with /tmp noexec: " + s);
        assertEquals(s.get("ok").asDouble(), s.get("server").get("frames_sent").asDouble(), s.toString());
        String serverLog = docker(30, "logs", echo).out();
        assertTrue(serverLog.contains("(epoll") && !serverLog.contains("auto: nio"), serverLog);

        // The controller and its local workers, all in one container.
        Ran workers = runIn(IMAGE, "1g", 180, "controller", "--workers", "2", "echo", "--target", target, "--scrape",
                metrics, "--connections", "10", "--duration", "3s", "--json");
        assertEquals(0, workers.exit(), workers.out());
        JsonNode merged = JSON.readTree(workers.out().substring(workers.out().indexOf('{'))).get("merged");
        assertTrue(merged.get("ok").asLong() > 0, merged.toString());
        assertEquals(merged.get("ok").asDouble(), merged.get("server").get("frames_sent").asDouble(), merged.toString());
        assertEquals("false", docker(30, "inspect", "--format", "{{.State.OOMKilled}}", echo).out().strip());
    }

    /**
     * The memory sizing under large pipelined frames: 100 connections × 4 × 64 KiB against the echo server at 256 MiB.
     * Its cumulations grew in place to 512 KiB a connection, past its 112 MiB of direct memory: 751 requests failed.
     */
    @Test
    void largePipelinedFramesFitTheServersMemoryLimit() throws Exception {
        String echo = server(IMAGE, "ricochet-it-large-" + ProcessHandle.current().pid(), "-jar",
                "/app/echo-server.jar", "--host", "127.0.0.1", "--tcp-port", "0", "--udp-port", "-1", "--rpc-port",
                "-1", "--metrics-port", "-1", "--length-field", "4", "--max-frame", "128KiB");
        String target = listening(echo, "tcp");
        Ran load = runIn(IMAGE, "1g", 120, "echo", "--target", target, "--connections", "100", "--pipeline", "4",
                "--size", "64KiB", "--length-field", "4", "--duration", "5s", "--timeout", "30s", "--json");
        JsonNode s = JSON.readTree(load.out().substring(load.out().indexOf('{')));
        String serverLog = docker(30, "logs", echo).out();
        assertEquals(0, s.get("errors").asLong() + s.get("bad").asLong(), s + "\n" + serverLog);
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertTrue(!serverLog.contains("OutOfMemoryError"), serverLog);
        assertEquals("false", docker(30, "inspect", "--format", "{{.State.OOMKilled}}", echo).out().strip());
    }

    @Test
    void theExampleImageServesKvAndLoadsItByTheWorkloadsName() throws Exception {
        String kv = server(EXAMPLE, "ricochet-it-kv-" + ProcessHandle.current().pid(), "-cp",
                "/app/load-generator.jar:/app/workloads/kv-workloads.jar", "io.ricochet.examples.kv.KvServer", "--host",
                "127.0.0.1", "--tcp-port", "0", "--rpc-port", "0");
        String target = listening(kv, "tcp");
        Ran list = runIn(EXAMPLE, "512m", 60, "echo", "--workload", "list");
        assertTrue(list.out().contains("kv-text") && list.out().contains("kv-rpc"), list.out());
        Ran load = runIn(EXAMPLE, "512m", 120, "echo", "--target", target, "--workload", "kv-text", "--connections",
                "4", "--duration", "2s", "--json");
        assertEquals(0, load.exit(), load.out());
        JsonNode s = JSON.readTree(load.out().substring(load.out().indexOf('{')));
        assertTrue(s.get("ok").asLong() > 0, s.toString());
        assertEquals(0, s.get("bad").asLong() + s.get("errors").asLong(), s.toString());
        assertEquals("epoll", s.get("io").asText(), s.toString());
    }

    @Test
    void theImageRunsAsItsUserWhoCanWriteNothingInApp() throws Exception {
        assertEquals("10001:10001", docker(30, "inspect", "--format", "{{.Config.User}}", IMAGE).out().strip());
        Ran writable = docker(60, "run", "--rm", "--network", "host", "--user", "10001:10001", "--entrypoint", "find",
                IMAGE, "/app", "-writable");
        assertEquals(0, writable.exit(), writable.out());
        assertEquals("", writable.out().strip(), "writable by the image's user");
        Ran natives = docker(60, "run", "--rm", "--network", "host", "--entrypoint", "ls", IMAGE, "/app/native");
        assertTrue(natives.out().contains("libnetty_transport_native_epoll_x86_64.so"), natives.out());
    }

    /**
     * Each jar maps the class-data archive the build made for it, as the image's user on its read-only filesystem:
     * {@code -Xshare:on} makes a JVM that cannot map an archive fail rather than start without it.
     */
    @Test
    void bothJarsMapTheClassDataArchivesTheBuildMadeForThem() throws Exception {
        for (String jar : List.of("echo-server", "load-generator")) {
            List<String> command = new ArrayList<>(List.of("run", "--rm"));
            command.addAll(restricted("256m"));
            command.addAll(List.of("--entrypoint", "java", IMAGE, "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=40",
                    "-Djava.library.path=/app/native", "-Xshare:on", "-XX:SharedArchiveFile=/app/cds/" + jar + ".jsa",
                    "-jar", "/app/" + jar + ".jar", "--version"));
            Ran version = docker(60, command.toArray(String[]::new));
            assertEquals(0, version.exit(), jar + ": " + version.out());
            assertTrue(version.out().contains("ricochet " + jar), jar + ": " + version.out());
        }
        // The entrypoint names the generator's archive and sends the JVM's warnings to stderr, not into --json's stdout.
        String entrypoint = docker(30, "inspect", "--format", "{{json .Config.Entrypoint}}", IMAGE).out();
        assertTrue(entrypoint.contains("-XX:SharedArchiveFile=/app/cds/load-generator.jsa")
                && entrypoint.contains("-Xlog:all=warning:stderr"), entrypoint);
    }
}
