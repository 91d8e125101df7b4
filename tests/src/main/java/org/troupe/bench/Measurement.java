package org.troupe.bench;

/**
 * One figure: the average cost of one operation of one implementation on one case.
 *
 * @param bytes the size the operation moves (serialized message, or raw data for copy baselines)
 */
public record Measurement(String suite, String caseName, String impl, String op, double nsPerOp, long bytes)
        implements Figure {
    public Measurement {
        if (!Double.isFinite(nsPerOp) || nsPerOp < 0) {
            // JSON has no NaN or infinity, and a negative time is a harness bug; refuse rather than print nonsense.
            throw new IllegalArgumentException(
                    "not a time: " + nsPerOp + " ns/op for " + caseName + "/" + impl + "/" + op);
        }
    }

    /** The JSON object printed on one line of stdout. */
    @Override
    public String toJson() {
        return "{\"suite\":" + Figure.quote(suite)
                + ",\"case\":" + Figure.quote(caseName)
                + ",\"impl\":" + Figure.quote(impl)
                + ",\"op\":" + Figure.quote(op)
                + ",\"ns_per_op\":" + Figure.number(nsPerOp, "time")
                + ",\"bytes\":" + bytes + "}";
    }
}
