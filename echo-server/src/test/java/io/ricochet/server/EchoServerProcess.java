package io.ricochet.server;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The echo server as a user runs it: a separate JVM on the test classpath, its stdout lines parsed. */
final class EchoServerProcess implements AutoCloseable {
    private final Process process;
    private final Path stderr;
    private final List<String> stdout = new ArrayList<>();
    private final BufferedReader out;

    private EchoServerProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static EchoServerProcess start(List<String> jvmArgs, String... args) throws IOException {
        return start(List.of(), jvmArgs, args);
    }

    /** Run by {@code launcher}, such as {@code prlimit --nofile=1024:1024}, which then runs the JVM in its place. */
    static EchoServerProcess start(List<String> launcher, List<String> jvmArgs, String... args) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EchoServerMain.class.getName());
        if (Arrays.stream(args).noneMatch(a -> a.startsWith("--rpc-port"))) {
            // Tests that are not about RPC must not depend on the default RPC port being free.
            command.add("--rpc-port=-1");
        }
        command.addAll(List.of(args));
        Path stderr = Files.createTempFile("echo-server", ".err");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new EchoServerProcess(process, stderr);
    }

    static EchoServerProcess start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /** Reads stdout until the {@code listening <what>} line and returns its address. */
    InetSocketAddress awaitListening(String what) throws IOException {
        String prefix = "listening " + what + " ";
        String line;
        while ((line = out.readLine()) != null) {
            stdout.add(line);
            if (line.startsWith(prefix)) {
                String hostPort = line.substring(prefix.length()).replace("http://", "").replace("/metrics", "");
                int colon = hostPort.lastIndexOf(':');
                return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
            }
        }
        throw new AssertionError("no '" + prefix + "' line; stdout " + stdout + ", stderr " + stderr());
    }

    /** The rest of the next stdout line that starts with {@code prefix}. */
    String awaitLine(String prefix) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            stdout.add(line);
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
        throw new AssertionError("no '" + prefix + "' line; stdout " + stdout + ", stderr " + stderr());
    }

    List<String> stdoutLines() {
        return stdout;
    }

    long pid() {
        return process.pid();
    }

    /** Sends SIGTERM and returns the exit status. */
    int terminate() throws InterruptedException {
        process.destroy();
        return awaitExit();
    }

    int awaitExit() throws InterruptedException {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("echo-server did not exit within 30 s");
        }
        return process.exitValue();
    }

    String stderr() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        out.close();
        new File(stderr.toString()).delete();
    }
}
