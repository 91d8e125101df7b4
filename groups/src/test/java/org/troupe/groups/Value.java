package org.troupe.groups;

/** A plain result: members return it, and calls on a result group go to it. */
public class Value {
    private int number;
    private String tag = "";

    public Value() {}

    public Value(final int number, final String tag) {
        this.number = number;
        this.tag = tag;
    }

    public int number() {
        return number;
    }

    public String tag() {
        return tag;
    }

    @Override
    public String toString() {
        return tag + "=" + number;
    }

    public Value plus(final int n) {
        return new Value(number + n, tag + "+" + n);
    }
}
