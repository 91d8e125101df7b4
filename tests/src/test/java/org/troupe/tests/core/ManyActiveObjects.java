package org.troupe.tests.core;

import java.util.ArrayList;
import java.util.List;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Futures;
import org.troupe.core.TroupeRuntime;

/**
 * Run by {@link ManyActiveObjectsTest} in a JVM of its own with a 1 GB heap: creates N active objects, has each
 * serve one request, checks every answer, and prints the heap in use while they all live. Exits 0 when all is
 * right, 1 otherwise (with the reason on stderr).
 */
public final class ManyActiveObjects {
    private ManyActiveObjects() {}

    public static void main(final String[] args) {
        final int n = Integer.parseInt(args[0]);
        final TroupeRuntime runtime = TroupeRuntime.get();
        final List<Worker> workers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            workers.add(ActiveObjects.newActive(Worker.class, new Object[] {i}));
        }
        final List<Result> results = new ArrayList<>(n);
        for (final Worker w : workers) {
            results.add(w.total());
        }
        Futures.waitForAll(results);
        for (int i = 0; i < n; i++) {
            if (results.get(i).value() != i) {
                System.err.println("worker " + i + " answered " + results.get(i).value());
                System.exit(1);
            }
        }
        final int alive = runtime.activeObjectCount();
        System.gc();
        final Runtime jvm = Runtime.getRuntime();
        final long usedMb = (jvm.totalMemory() - jvm.freeMemory()) >> 20;
        System.out.println(
                "served " + n + " alive " + alive + " heapUsedMb " + usedMb + " maxHeapMb " + (jvm.maxMemory() >> 20));
        runtime.shutdown();
        System.exit(alive == n ? 0 : 1);
    }
}
