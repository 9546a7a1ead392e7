package io.ricochet.transport;

import java.util.Locale;

/** The two ways frames travel; also the {@code protocol} tag of the meters of plain framed listeners. */
public enum Protocol {
    TCP, UDP;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
