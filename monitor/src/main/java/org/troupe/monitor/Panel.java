package org.troupe.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an application shows of itself in the console, in one titled panel: series drawn as charts (steps per
 * second, energy drift, a residual), tables (one row per subdomain or rank), matrices (traffic between ranks) and
 * events. Any thread may fill it; the console reads it at each update. Bounded: a series keeps its last
 * {@value #MAX_POINTS} points, the panel its last {@value #MAX_EVENTS} events.
 */
public final class Panel {
    static final int MAX_POINTS = 600;
    static final int MAX_EVENTS = 200;

    private final String title;
    private final Map<String, Series> series = new LinkedHashMap<>();
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Matrix> matrices = new LinkedHashMap<>();
    private final Deque<String[]> events = new ArrayDeque<>();

    private record Series(String unit, String xLabel, Deque<double[]> points) {}

    private record Table(List<String> columns, Map<String, List<String>> rows) {}

    private record Matrix(List<String> labels, double[][] values, String unit) {}

    Panel(final String title) {
        this.title = title;
    }

    /** Adds the point ({@code x}, {@code y}) to the chart {@code name}, whose axes are {@code xLabel} and {@code unit}. */
    public synchronized void point(
            final String name, final String xLabel, final String unit, final double x, final double y) {
        final Deque<double[]> points = series.computeIfAbsent(name, n -> new Series(unit, xLabel, new ArrayDeque<>()))
                .points();
        points.addLast(new double[] {x, y});
        if (points.size() > MAX_POINTS) {
            points.removeFirst();
        }
    }

    /** Sets the row {@code key} of the table {@code name} (made with {@code columns}, the key's column first). */
    public synchronized void row(
            final String name, final List<String> columns, final String key, final List<?> values) {
        final Table t = tables.computeIfAbsent(name, n -> new Table(List.copyOf(columns), new LinkedHashMap<>()));
        final List<String> cells = new ArrayList<>();
        cells.add(key);
        values.forEach(v -> cells.add(String.valueOf(v)));
        t.rows().put(key, cells);
    }

    /** Sets the matrix {@code name}: {@code values[i][j]} from {@code labels[i]} to {@code labels[j]}. */
    public synchronized void matrix(
            final String name, final List<String> labels, final double[][] values, final String unit) {
        final double[][] copy = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            copy[i] = values[i].clone();
        }
        matrices.put(name, new Matrix(List.copyOf(labels), copy, unit));
    }

    /** Notes an event (a node lost, a checkpoint taken), timed now. */
    public synchronized void event(final String text) {
        events.addLast(new String[] {String.valueOf(System.currentTimeMillis()), text});
        if (events.size() > MAX_EVENTS) {
            events.removeFirst();
        }
    }

    synchronized void write(final Json j) {
        j.begin().field("title", title);
        j.key("series").beginArray();
        series.forEach((name, s) -> {
            j.begin().field("name", name).field("unit", s.unit()).field("x", s.xLabel());
            j.key("points").beginArray();
            for (final double[] p : s.points()) {
                j.beginArray().value(p[0]).value(p[1]).endArray();
            }
            j.endArray().end();
        });
        j.endArray();
        j.key("tables").beginArray();
        tables.forEach((name, t) -> {
            j.begin().field("name", name).strings("columns", t.columns());
            j.key("rows").beginArray();
            t.rows().values().forEach(r -> {
                j.beginArray();
                r.forEach(j::value);
                j.endArray();
            });
            j.endArray().end();
        });
        j.endArray();
        j.key("matrices").beginArray();
        matrices.forEach((name, m) -> {
            j.begin().field("name", name).field("unit", m.unit()).strings("labels", m.labels());
            j.key("values").beginArray();
            for (final double[] row : m.values()) {
                j.beginArray();
                for (final double v : row) {
                    j.value(v);
                }
                j.endArray();
            }
            j.endArray().end();
        });
        j.endArray();
        j.key("events").beginArray();
        for (final String[] e : events) {
            j.beginArray().value(Double.parseDouble(e[0])).value(e[1]).endArray();
        }
        j.endArray().end();
    }
}
