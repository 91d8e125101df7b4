package org.troupe.groups.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.troupe.core.ActiveObjects;

/** Tells each member of a new SPMD group, through the agent beside it, its rank and the group. */
public final class SpmdSetup {
    private SpmdSetup() {}

    public static void join(final Class<?> type, final List<?> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("An SPMD group needs at least one member");
        }
        final Object[] all = members.toArray();
        // The barriers live beside the first member, so barrier traffic stays among the members' JVMs.
        final BarrierKeeper barriers = ActiveObjects.newActive(
                BarrierKeeper.class, new Object[] {all.length}, ActiveObjects.nodeBeside(all[0]));
        final SpmdInfo info = new SpmdInfo(0, GroupHandler.newGroup(type, members), barriers);
        final List<CompletableFuture<Void>> joined = new ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            final Object member = all[i];
            final SpmdInfo mine = info.withRank(i);
            joined.add(CompletableFuture.runAsync(
                    () -> Agents.beside(member).joinSpmd(member, mine).join(),
                    command -> Thread.ofVirtual().start(command)));
        }
        try {
            CompletableFuture.allOf(joined.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            ActiveObjects.terminate(barriers);
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
