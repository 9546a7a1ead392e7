package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Controller usage errors: one line, exit 2, before any worker starts. */
class ControllerCliTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--workers 2 sweep|'sweep' cannot be split over workers",
        "--workers 2 --executor mesos echo|executor: mesos",
        "--workers 2 --weights 1,2,3 echo|weights: 3 values",
        "--workers 2 --executor kubernetes echo|--target is required with --executor kubernetes",
        "--workers 4 echo --connections 3|connections: 3 over 4 workers",
        "--workers 2 echo --connections x|scenario:",
        "--workers 0 echo|workers: 0"})
    void aBadRunIsOneLineAndExitTwo(String args, String expected) {
        Cli.Result r = Cli.run(("controller " + args).split(" "));
        assertEquals(2, r.exit(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].contains(expected), lines[0]);
        assertFalse(lines[0].contains("Exception"), lines[0]);
    }
}
