/** Benchmarks run by {@code bin/bench}: JMH, or a warmed harness for {@code --quick}. */
package org.troupe.bench;
