package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** An ordered set of the job's ranks: a communicator's members, or the start of a new communicator. */
public class Group {
    /** World ranks of the members, in group rank order. */
    final int[] members;

    Group(final int[] members) {
        this.members = members;
    }

    public int Size() {
        return members.length;
    }

    /** This rank's rank in the group, or {@link MPI#UNDEFINED} if it is not a member. */
    public int Rank() throws MPIException {
        return indexOf(MPI.state().worldRank);
    }

    private int indexOf(final int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /** The members at {@code ranks}, in that order. */
    public Group Incl(final int[] ranks) throws MPIException {
        final int[] m = new int[ranks.length];
        final Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < ranks.length; i++) {
            checkRank(ranks[i], "Incl");
            if (!seen.add(ranks[i])) {
                throw new MPIException("Incl: rank " + ranks[i] + " is named twice");
            }
            m[i] = members[ranks[i]];
        }
        return new Group(m);
    }

    /** The members but those at {@code ranks}, in group order. */
    public Group Excl(final int[] ranks) throws MPIException {
        final Set<Integer> out = new LinkedHashSet<>();
        for (final int r : ranks) {
            checkRank(r, "Excl");
            out.add(r);
        }
        final List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < members.length; i++) {
            if (!out.contains(i)) {
                kept.add(members[i]);
            }
        }
        return new Group(kept.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members in the ranges {@code {first, last, stride}}, in order. */
    public Group Range_incl(final int[][] ranges) throws MPIException {
        return Incl(expand(ranges));
    }

    public Group Range_excl(final int[][] ranges) throws MPIException {
        return Excl(expand(ranges));
    }

    private int[] expand(final int[][] ranges) throws MPIException {
        final List<Integer> ranks = new ArrayList<>();
        for (final int[] r : ranges) {
            if (r.length != 3 || r[2] == 0) {
                throw new MPIException(
                        "a rank range is {first, last, stride} with a stride other than 0, not " + Arrays.toString(r));
            }
            for (int i = r[0]; r[2] > 0 ? i <= r[1] : i >= r[1]; i += r[2]) {
                ranks.add(i);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    private void checkRank(final int rank, final String call) throws MPIException {
        if (rank < 0 || rank >= members.length) {
            throw new MPIException(call + ": rank " + rank + " is not in a group of " + members.length);
        }
    }

    /** The ranks in {@code group2} of the members at {@code ranks1} in {@code group1} ({@link MPI#UNDEFINED} if absent). */
    public static int[] Translate_ranks(final Group group1, final int[] ranks1, final Group group2)
            throws MPIException {
        final int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            group1.checkRank(ranks1[i], "Translate_ranks");
            out[i] = group2.indexOf(group1.members[ranks1[i]]);
        }
        return out;
    }

    /** {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}. */
    public static int Compare(final Group group1, final Group group2) {
        if (Arrays.equals(group1.members, group2.members)) {
            return MPI.IDENT;
        }
        final int[] a = group1.members.clone();
        final int[] b = group2.members.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members of {@code group1}, then those of {@code group2} not in it. */
    public static Group Union(final Group group1, final Group group2) {
        final Set<Integer> m = new LinkedHashSet<>();
        for (final int r : group1.members) {
            m.add(r);
        }
        for (final int r : group2.members) {
            m.add(r);
        }
        return new Group(m.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members of {@code group1} also in {@code group2}, in {@code group1}'s order. */
    public static Group Intersection(final Group group1, final Group group2) {
        return new Group(Arrays.stream(group1.members)
                .filter(r -> group2.indexOf(r) != MPI.UNDEFINED)
                .toArray());
    }

    /** The members of {@code group1} not in {@code group2}, in {@code group1}'s order. */
    public static Group Difference(final Group group1, final Group group2) {
        return new Group(Arrays.stream(group1.members)
                .filter(r -> group2.indexOf(r) == MPI.UNDEFINED)
                .toArray());
    }

    public void Free() {}

    /** {@link #Free}, as MPJ Express spells it. */
    public void free() {}
}
