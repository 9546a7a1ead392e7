package io.ricochet.loadgen.report;

import java.util.List;

/** The result of a multi-step command: every step, and for a ramp the knee (the highest rate that met the SLO). */
public record StepsReport(String command, String target, String transport, String latencyKind, List<StepRow> steps,
        Double kneeRate, Long kneeP99Us, String verdict) {
}
