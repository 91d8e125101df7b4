package org.troupe.groups.internal;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.Outcome;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.MemberFailure;

/**
 * The groups layer's helper in a JVM that holds members: an active object created beside them on demand, one per
 * JVM and calling runtime. It runs the steps of tree reductions there and records SPMD membership. Public only
 * because active objects are created by class name; not for applications.
 */
public class GroupAgent {
    private static final Calls CALLS = TroupeRuntime.calls();

    /**
     * Calls the step's first member, hands the rest on along a binomial tree (the subtrees of sizes 1, 2, 4, ...
     * to the agents beside their first members), and folds the replies in member order. Returns at once, so that
     * the agent serves its other steps meanwhile.
     */
    public CompletableFuture<Object> reduce(final TreeStep step) {
        final List<CompletableFuture<Object>> parts = new ArrayList<>();
        parts.add(callFirst(step));
        for (int from = 1; from < step.size(); from <<= 1) {
            final int to = Math.min(step.size(), from << 1);
            parts.add(((GroupAgent) step.agents[from]).reduce(step.slice(from, to)));
        }
        // Replies complete the parts on the thread that reads the link: fold (user code) and reply elsewhere.
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApplyAsync(
                        ignored -> {
                            Object acc = parts.getFirst().join();
                            for (int i = 1; i < parts.size(); i++) {
                                acc = step.combiner.combine(acc, parts.get(i).join());
                            }
                            return acc;
                        },
                        command -> Thread.ofVirtual().start(command));
    }

    private static CompletableFuture<Object> callFirst(final TreeStep step) {
        final CompletableFuture<Object> result = new CompletableFuture<>();
        try {
            final Method m = resolve(step);
            final Outcome f = CALLS.send(
                            new Object[] {step.members[0]},
                            m,
                            new Object[][] {step.args[0]},
                            k -> GroupHandler.role(step.first, step.groupSize))[0];
            f.whenDone((v, t) -> {
                if (t != null) {
                    result.completeExceptionally(failed(step, m, t));
                } else {
                    result.complete(v);
                }
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(failed(step, null, e));
        }
        return result;
    }

    /** A member's failure as it goes up the tree: naming the member, which the caller could not tell otherwise. */
    private static GroupCallException failed(final TreeStep step, final Method m, final Throwable t) {
        return new GroupCallException(
                TreeReduction.describe(
                        m == null ? "" : m.getDeclaringClass().getSimpleName() + ".", step.methodName, step.groupSize),
                List.of(new MemberFailure(step.first, step.members[0], t)));
    }

    private static Method resolve(final TreeStep step) {
        final Class<?> c = CALLS.classOf(step.members[0]);
        for (final Method m : c.getMethods()) {
            if (m.getName().equals(step.methodName)
                    && Arrays.equals(
                            step.parameterTypes,
                            Arrays.stream(m.getParameterTypes())
                                    .map(Class::getName)
                                    .toArray(String[]::new))) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                c.getName() + " has no public method " + step.methodName + Arrays.toString(step.parameterTypes));
    }

    /** Records that {@code member}, an active object of this JVM, is rank {@code info.rank()} of an SPMD group. */
    public CompletableFuture<Boolean> joinSpmd(final Object member, final SpmdInfo info) {
        SpmdRegistry.join(member, info);
        return CompletableFuture.completedFuture(Boolean.TRUE);
    }
}
