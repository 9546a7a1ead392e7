package io.ricochet.transport;

import java.util.Locale;

/** The two ways frames travel; also the {@code transport} tag of every meter. */
public enum Protocol {
    TCP, UDP;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
