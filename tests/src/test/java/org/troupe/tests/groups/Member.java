package org.troupe.tests.groups;

import java.util.List;
import org.troupe.groups.Group;
import org.troupe.groups.Groups;
import org.troupe.groups.Spmd;

/** A group member for the multi-JVM tests. */
public class Member {
    private int id;
    private long received;

    public Member() {}

    public Member(final Integer id) {
        this.id = id;
    }

    public Sample sample() {
        return new Sample(id, ProcessHandle.current().pid());
    }

    public Sample echo(final Sample s) {
        return new Sample(s.id() * 10, ProcessHandle.current().pid());
    }

    /** Calls every member of a group it was given, and says how many answered and the sum of their ids. */
    public Sample askAll(final Member others) {
        final Group<Sample> answers = Groups.view(others.sample());
        answers.waitAll();
        return new Sample(
                answers.size() * 1000
                        + answers.members().stream().mapToInt(Sample::id).sum(),
                ProcessHandle.current().pid());
    }

    public Sample slow(final int millis) throws InterruptedException {
        Thread.sleep(millis);
        return sample();
    }

    /** One-way: throws on the member whose id is {@code who}. */
    public void failAt(final int who) {
        if (who == id) {
            throw new IllegalStateException("member " + id + " fails on purpose");
        }
    }

    public void receive(final double[] data) {
        received += data.length;
    }

    public Sample received() {
        return new Sample((int) received, ProcessHandle.current().pid());
    }

    public Trace trace() {
        return new Trace(id, List.of());
    }

    public String whoAmI() {
        return Spmd.rank() + "/" + Spmd.size() + "/"
                + Groups.view(Spmd.group(Member.class)).size() + ";";
    }

    /** {arrived, left} in this machine's monotonic nanos, around a barrier. */
    public long[] meet() throws InterruptedException {
        Thread.sleep((Spmd.rank() * 13L) % 50);
        final long arrived = System.nanoTime();
        Spmd.barrier("meet");
        return new long[] {arrived, System.nanoTime()};
    }
}
