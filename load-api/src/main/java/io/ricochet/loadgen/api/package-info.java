/**
 * Load tests from code: a builder that runs a workload against your service on the same engine as the command line,
 * and returns the result with each threshold's verdict, so a JUnit test of your service can fail on a broken one.
 *
 * <pre>{@code
 * LoadResult result = LoadTest.tcp(new InetSocketAddress("127.0.0.1", port))
 *         .workload(new KvTextWorkload(100, 0.5))
 *         .connections(20).pipeline(4)
 *         .duration(Duration.ofSeconds(3))
 *         .threshold("p99<20ms").threshold("errors==0")
 *         .run();
 * result.assertThresholds();
 * }</pre>
 */
package io.ricochet.loadgen.api;
