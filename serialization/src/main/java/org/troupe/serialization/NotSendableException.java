package org.troupe.serialization;

import java.io.Serial;

/**
 * An object that can never cross the wire, whatever the allow-list says: a lambda (or another hidden class), a local
 * resource of this JVM (a thread, a socket, a stream, a lock, an executor, a future...), or a JDK class whose state
 * Troupe cannot reach. It was refused before any byte was sent: the message was not written, and the call that
 * carried it was not made. The message names the class and, when it can be found, the field path that led to it
 * from the object sent (for example {@code Task.callback}).
 */
public final class NotSendableException extends SerializationException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Why an object can never be sent. */
    public enum Reason {
        /** A lambda or method reference: its class is hidden, no other JVM can name it. */
        LAMBDA,
        /** Another hidden class: no other JVM can name it. */
        HIDDEN_CLASS,
        /** A thread, socket, stream, lock, executor, future or other object that only means something here. */
        LOCAL_RESOURCE,
        /** A JDK class outside the few whose state Troupe can write and rebuild. */
        UNSUPPORTED_JDK_CLASS
    }

    private final Reason reason;
    private final String className;
    private final String kind;
    private final String path;

    /**
     * @param reason why it cannot be sent
     * @param className the binary name of the refused class
     * @param kind for a local resource, the type that makes it one (e.g. {@code InputStream}), if not the class itself;
     *     else null
     * @param path where it was found from the object sent, e.g. {@code Task.callback}; null if unknown
     */
    public NotSendableException(final Reason reason, final String className, final String kind, final String path) {
        super(message(reason, className, kind, path));
        this.reason = reason;
        this.className = className;
        this.kind = kind;
        this.path = path;
    }

    /** What can be sent instead of a lambda or a hidden class: java.io.Serializable plays no part. */
    private static final String SEND_INSTEAD =
            "send an active object, or an object of a named class whose package is allowed (it need not be"
                    + " Serializable)";

    private static String message(final Reason reason, final String className, final String kind, final String path) {
        final String a = kind == null ? "" : article(kind) + " " + kind;
        final String subject = path != null
                ? path + " (" + className + (a.isEmpty() ? "" : ", " + a) + ")"
                : className + (a.isEmpty() ? "" : " (" + a + ")");
        return switch (reason) {
            case LAMBDA ->
                (path == null ? className + " is a lambda" : path + " is a lambda (" + className + ")")
                        + ": lambdas cannot be sent; " + SEND_INSTEAD;
            case HIDDEN_CLASS -> subject + " is of a hidden class: hidden classes cannot be sent; " + SEND_INSTEAD;
            case LOCAL_RESOURCE ->
                subject + " is a local resource and cannot be sent: create it where it is used,"
                        + " or send an active object that holds it";
            case UNSUPPORTED_JDK_CLASS ->
                subject + " is a JDK class that cannot be sent, whatever is allowed: Troupe"
                        + " cannot rebuild it on the other side; send what it holds instead. "
                        + SerializationConfig.JDK_CLASSES_SENT;
        };
    }

    private static String article(final String word) {
        return "AEIOU".indexOf(word.charAt(0)) >= 0 ? "an" : "a";
    }

    /** The same refusal, saying where the object was found. */
    public NotSendableException at(final String where) {
        return where == null ? this : new NotSendableException(reason, className, kind, where);
    }

    public Reason reason() {
        return reason;
    }

    /** The binary name of the refused class. */
    public String className() {
        return className;
    }

    /** Where the object was found from the object sent, e.g. {@code Task.callback}; null if unknown. */
    public String path() {
        return path;
    }
}
