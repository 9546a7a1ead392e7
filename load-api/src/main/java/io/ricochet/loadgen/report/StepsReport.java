package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The result of a multi-step command: every step, and for a ramp the knee (the highest rate that met the SLO). */
public record StepsReport(String command, String target, String transport, String latencyKind, List<StepRow> steps,
        Double kneeRate, Long kneeP99Us, String verdict) {

    /** Every step's requests, under the key every command uses. */
    @JsonProperty("requests")
    public long requests() {
        return steps.stream().mapToLong(StepRow::requests).sum();
    }

    /** Every step's verified replies. */
    @JsonProperty("ok")
    public long ok() {
        return steps.stream().mapToLong(StepRow::ok).sum();
    }

    /** Every step's bad replies. */
    @JsonProperty("bad")
    public long bad() {
        return steps.stream().mapToLong(StepRow::bad).sum();
    }

    /** Every step's errors. */
    @JsonProperty("errors")
    public long errors() {
        return steps.stream().mapToLong(StepRow::errors).sum();
    }
}
