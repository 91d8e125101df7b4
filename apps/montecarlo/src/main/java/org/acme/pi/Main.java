package org.acme.pi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.groups.Group;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.GroupMethod;
import org.troupe.groups.Groups;

/**
 * Estimates pi with a typed group of workers: a scatter whose replies form a result group, then a combined reply.
 * Run by {@code bin/deploy DESCRIPTOR --run org.acme.pi.Main}, the workers are on the nodes of the virtual node
 * "workers"; run with plain {@code java}, they are all in this JVM.
 */
public final class Main {
    private Main() {
    }

    public static void main(final String[] args) {
        int workers = 0;
        long darts = 5_000_000;
        int fail = -1;
        for (int i = 0; i < args.length; i++) {
            final String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--workers" -> workers = Integer.parseInt(value);
                case "--darts" -> darts = Long.parseLong(value);
                case "--fail" -> fail = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                    + "; the options are --workers N, --darts PER_WORKER, --fail MEMBER");
            }
            i++;
        }
        final Optional<Deployment> deployment = Deployment.currentIfAny();
        final Node[] nodes = deployment.isPresent()
            ? deployment.get().virtualNode("workers").nodes().toArray(Node[]::new)
            : new Node[] {TroupeRuntime.get().defaultNode()};
        if (workers == 0) {
            workers = deployment.isPresent() ? nodes.length : 4;
        }

        // One worker per node (round robin when there are more workers than nodes); member `fail` is broken.
        final Object[][] params = new Object[workers][];
        for (int i = 0; i < workers; i++) {
            params[i] = new Object[] {i, i == fail};
        }
        final Worker group = Groups.newGroup(Worker.class, params, nodes);
        final Group<Worker> view = Groups.view(group);
        System.out.printf("%d workers on %d node(s), %,d darts each%n", workers, nodes.length, darts);

        // 1. A scatter: member i gets batch i. The call returns at once, with a result group of futures.
        final List<Batch> batches = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            batches.add(new Batch(darts, 1000 + i));
        }
        view.setScatter(true);
        final Tally tallies = group.throwDarts(Groups.of(Batch.class, batches));
        final Group<Tally> results = Groups.view(tallies);
        results.waitAll(Duration.ofMinutes(5));
        System.out.println("tallies: " + results); // never waits, never throws: <failed: ...> for a failed member
        Tally sum = new Tally();
        int failed = 0;
        for (int i = 0; i < results.size(); i++) {
            try {
                sum = sum.plus(results.waitTheNth(i));
            } catch (RuntimeException e) {
                failed++;
                // The worker's stack trace, then "Suppressed: org.troupe.core.exceptions.TouchedAt: ... (member i of n)" with
                // this line: where this program touched the failed result.
                System.err.println("member " + i + " failed:");
                e.printStackTrace();
            }
        }
        System.out.printf("pi ~ %.6f from %d of %d workers (error %.1e)%n", sum.pi(), workers - failed, workers,
            Math.abs(sum.pi() - Math.PI));

        // 2. A combined reply: the members' tallies folded into one at the caller; one failure fails the call.
        view.method("throwDarts", Batch.class).combine(Tally::plus, GroupMethod.Reduction.AT_CALLER);
        try {
            final Tally total = group.throwDarts(Groups.of(Batch.class, batches));
            System.out.printf("combined: pi ~ %.6f from %,d darts%n", total.pi(), total.darts());
        } catch (GroupCallException e) {
            System.err.println("combined: " + e.getMessage());
        }
        if (failed > 0) {
            throw new IllegalStateException(failed + " of " + workers + " workers failed (see above)");
        }
    }
}
