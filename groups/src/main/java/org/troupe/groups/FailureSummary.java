package org.troupe.groups;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.spi.Outcome;
import org.troupe.groups.internal.GroupHandler;

/**
 * The failures of several members as one line: each distinct failure said once, with the members it struck, so
 * that four members refused for the same reason make one short message rather than four copies of a long one.
 */
final class FailureSummary {
    /** Distinct failures spelled out; the rest are counted. */
    private static final int MAX_KINDS = 5;

    private FailureSummary() {}

    /** One member's failure: its index, what it is (null if nothing to say) and what it threw. */
    record Entry(int index, String who, Throwable cause) {}

    static List<Entry> entries(final List<MemberFailure> failures) {
        return failures.stream()
                .map(f -> new Entry(f.index(), GroupHandler.memberText(f.member()), f.cause()))
                .toList();
    }

    /**
     * "member 2 (Worker#2@troupe://host:port/node): java.lang.IllegalStateException: boom", "members 0-3: ..." when
     * they failed alike, or "3 members: member 1 (...): ...; members 2, 5: ..." when they did not.
     */
    static String of(final List<Entry> entries) {
        final Map<String, List<Entry>> byCause = new LinkedHashMap<>();
        for (final Entry e : entries) {
            byCause.computeIfAbsent(thrown(e.cause()), k -> new ArrayList<>()).add(e);
        }
        final List<String> parts = new ArrayList<>();
        for (final Map.Entry<String, List<Entry>> kind : byCause.entrySet()) {
            if (parts.size() == MAX_KINDS) {
                parts.add("and " + (byCause.size() - MAX_KINDS) + " other failures");
                break;
            }
            parts.add(members(kind.getValue()) + ": " + kind.getKey());
        }
        final String all = String.join("; ", parts);
        return byCause.size() == 1
                ? all
                : entries.stream().mapToInt(Entry::index).distinct().count() + " members: " + all;
    }

    /**
     * What a member threw, said alike for every member it struck. An exception that could not be rebuilt here comes
     * as a {@link CallFailedException} saying "creating a Worker on node n2 threw X: ...": the member is named
     * apart, so it is said from "X" on.
     */
    static String thrown(final Throwable t) {
        final String text = Outcome.describe(t);
        if (t instanceof CallFailedException c) {
            final int at = text.indexOf(" threw " + c.remoteClassName());
            if (at >= 0) {
                return text.substring(at + " threw ".length());
            }
        }
        return text;
    }

    private static String members(final List<Entry> struck) {
        final int[] indexes =
                struck.stream().mapToInt(Entry::index).sorted().distinct().toArray();
        if (indexes.length == 1) { // one member, maybe failing several calls alike
            final Entry e = struck.getFirst();
            return "member " + e.index() + (e.who() == null ? "" : " (" + e.who() + ")");
        }
        return "members " + ranges(indexes);
    }

    /** {0, 1, 2, 3, 5} as "0-3, 5". */
    static String ranges(final int[] sorted) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.length; i++) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
                j++;
            }
            b.append(b.isEmpty() ? "" : ", ").append(sorted[i]);
            if (j > i) {
                b.append('-').append(sorted[j]);
            }
            i = j;
        }
        return b.toString();
    }
}
