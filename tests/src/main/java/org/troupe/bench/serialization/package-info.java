/**
 * The {@code serialization} suite: each {@link org.troupe.bench.serialization.BenchCase case} (arrays, lists, a
 * tree, a cyclic list, a request) written and read by each {@link org.troupe.bench.serialization.Impl
 * implementation} (troupe, Kryo, Fory, JDK serialization, and a plain copy as the bound for arrays).
 */
package org.troupe.bench.serialization;
