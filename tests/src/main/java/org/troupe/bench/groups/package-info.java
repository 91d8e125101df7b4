/** {@code bin/bench groups}: group calls against loops of single calls. */
package org.troupe.bench.groups;
