package io.ricochet.loadgen.distributed;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs each worker as a JVM on this machine ({@link WorkerMain} on this JVM's class path, {@code --index=i}), each
 * within its own open-file limit, logging to {@code worker-<i>.log} in {@code logDir}.
 */
public final class LocalExecutor implements WorkerExecutor {
    private final int workers;
    private final List<String> jvmArgs;
    private final Path logDir;
    private final List<Process> processes = new ArrayList<>();
    private final boolean[] reported;

    public LocalExecutor(int workers, List<String> jvmArgs, Path logDir) {
        this.workers = workers;
        this.jvmArgs = jvmArgs;
        this.logDir = logDir;
        this.reported = new boolean[workers];
    }

    /**
     * Where this JVM loads Netty's native libraries from, for the workers it starts: an image's read-only
     * {@code -Djava.library.path=/app/native} (and a Netty work directory), unless the worker JVM arguments set their
     * own. Without them a worker in a container whose /tmp is noexec would fall back from epoll to NIO.
     */
    static List<String> inherited(List<String> jvmArgs) {
        List<String> out = new ArrayList<>();
        for (String property : List.of("java.library.path", "io.netty.native.workdir")) {
            String value = System.getProperty(property);
            if (value != null && jvmArgs.stream().noneMatch(a -> a.startsWith("-D" + property + "="))) {
                out.add("-D" + property + "=" + value);
            }
        }
        return out;
    }

    @Override
    public void launch(InetSocketAddress controller, String runSecret) throws IOException {
        Files.createDirectories(logDir);
        for (int i = 0; i < workers; i++) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmArgs);
            command.addAll(inherited(jvmArgs));
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(WorkerMain.class.getName());
            command.add("--controller=" + controller.getHostString() + ":" + controller.getPort());
            command.add("--index=" + i);
            Path log = log(i);
            ProcessBuilder worker = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            worker.environment().put(RunSecret.ENV, runSecret);
            processes.add(worker.start());
        }
    }

    public Path log(int index) {
        return logDir.resolve("worker-" + index + ".log");
    }

    /** The worker processes, for tests that kill one. */
    public List<Process> processes() {
        return List.copyOf(processes);
    }

    @Override
    public Map<Integer, String> poll() {
        Map<Integer, String> problems = new HashMap<>();
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            if (!reported[i] && !p.isAlive() && p.exitValue() != 0) {
                reported[i] = true;
                problems.put(i, "process " + p.pid() + " exited with status " + p.exitValue() + " (log: " + log(i) + ")");
            }
        }
        return problems;
    }

    @Override
    public void close() {
        for (Process p : processes) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroy();
                    if (!p.waitFor(5, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
