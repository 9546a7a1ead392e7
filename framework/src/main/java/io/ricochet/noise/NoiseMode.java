package io.ricochet.noise;

import io.ricochet.config.Labels;

/** How a sender groups frames into encrypted messages. Each side chooses for what it sends; a server mirrors its client. */
public enum NoiseMode {
    /** Each frame is its own message (FPNN's "package"): one tag per frame. */
    PACKAGE(1),
    /** The frames written before a flush (one read batch's replies, a pipelined burst) are sealed as one message. */
    STREAM(2);

    private final int code;

    NoiseMode(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    static NoiseMode ofCode(int code) {
        for (NoiseMode mode : values()) {
            if (mode.code == code) {
                return mode;
            }
        }
        return null;
    }

    public String label() {
        return Labels.of(this);
    }

    /** {@code package} or {@code stream}, as on the command line. */
    public static NoiseMode parse(String label) {
        return Labels.parse(values(), label, "encrypt", "package or stream");
    }
}
