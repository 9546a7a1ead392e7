package io.ricochet.loadgen.distributed;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every worker of a run as the controller sees it, and the run's problems. Its lock is the run's one
 * lock: the coordination service (on the RPC event loop), the controller's thread and the run merger
 * all take it, so a report is checked, merged and counted at once, never between a barrier's look and
 * its start.
 */
final class WorkerRoster {
    /** The most of a worker's error message that is kept. */
    static final int MAX_ERROR_CHARS = 1000;

    private final WorkerStatus[] workers;
    private final List<String> problems = new ArrayList<>();
    private final PrintStream progress;

    WorkerRoster(int size, PrintStream progress) {
        this.workers = new WorkerStatus[size];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new WorkerStatus(i);
        }
        this.progress = progress;
    }

    int size() {
        return workers.length;
    }

    /** Worker {@code index}; the caller holds the lock and has checked the index. */
    WorkerStatus get(int index) {
        return workers[index];
    }

    /** Every worker, in index order; the caller holds the lock while it reads or changes them. */
    List<WorkerStatus> all() {
        return List.of(workers);
    }

    /** Marks {@code w} failed, if it is not done already, and names it in the run's problems and live output. */
    synchronized void fail(WorkerStatus w, String why) {
        if (!w.state.terminal()) {
            if (w.state == WorkerState.RUNNING) {
                w.lostAtNanos = System.nanoTime();
            }
            w.fail(why);
            String line = "worker " + w.index + " FAILED: " + why;
            problems.add(line);
            progress.println(line);
        }
    }

    /** Adds a problem of the run that is no one worker's. */
    synchronized void problem(String message) {
        problems.add(message);
    }

    synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    synchronized boolean allTerminal() {
        for (WorkerStatus w : workers) {
            if (!w.state.terminal()) {
                return false;
            }
        }
        return true;
    }

    /** True if every worker ran to the end and exited cleanly. */
    synchronized boolean allSucceeded() {
        for (WorkerStatus w : workers) {
            if (w.state != WorkerState.DONE || w.exitCode > 1) {
                return false;
            }
        }
        return true;
    }

    /** The workers lost after the start, in index order. */
    synchronized List<WorkerStatus> lost() {
        List<WorkerStatus> lost = new ArrayList<>();
        for (WorkerStatus w : workers) {
            if (w.lostAtNanos != 0) {
                lost.add(w);
            }
        }
        return lost;
    }

    /** The indexes of the workers running now. */
    synchronized Set<Integer> running() {
        Set<Integer> running = new HashSet<>();
        for (WorkerStatus w : workers) {
            if (w.state == WorkerState.RUNNING) {
                running.add(w.index);
            }
        }
        return running;
    }

    /** {@code error} cut to {@link #MAX_ERROR_CHARS}. */
    static String clipError(String error) {
        return error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS) + "...";
    }
}
