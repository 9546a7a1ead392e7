package io.ricochet.config;

/**
 * A value a configuration does not take, naming the field it was given for. The message reads
 * {@code maxFrame: 0 (expected: 1..65535)}; a command line that took the value from a flag names the flag instead
 * with {@link #describe}, since its users never see the field.
 */
public final class InvalidValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String value;
    private final String expected;

    /** {@code value} as the user would write it (a duration as {@code 2s}); {@code expected} what would do. */
    public InvalidValueException(String field, String value, String expected) {
        super(field + ": " + value + " (expected: " + expected + ")");
        this.field = field;
        this.value = value;
        this.expected = expected;
    }

    public String field() {
        return field;
    }

    public String value() {
        return value;
    }

    public String expected() {
        return expected;
    }

    /** The same complaint about {@code name}, such as a flag: {@code --max-frame 0 (expected: 1..65535)}. */
    public String describe(String name) {
        return name + " " + value + " (expected: " + expected + ")";
    }
}
