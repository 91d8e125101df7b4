package org.troupe.serialization;

import java.io.Serial;

/**
 * A class outside the allow-list was about to be written or instantiated from the wire. It was refused before any
 * instance was made (and, when reading, before the class was even loaded). The message names the class and says
 * how to allow it ({@link SerializationConfig#howToAllow}). A class that could not be sent even if it were allowed
 * is refused with a {@link NotSendableException} instead.
 */
public final class ClassNotAllowedException extends SerializationException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String className;

    /**
     * @param className a binary name, or an array descriptor such as {@code [[Lorg.acme.Cell;}
     * @param config the configuration that refused it, whose allowed packages the advice extends
     */
    public ClassNotAllowedException(final String className, final SerializationConfig config) {
        super(message(className, config));
        this.className = className;
    }

    private static String message(final String className, final SerializationConfig config) {
        final String element = elementName(className);
        final String what = element.equals(className)
                ? "Class " + className
                : "Array class " + className + " (element " + element + ")";
        return what + " is not allowed to cross the wire; " + config.howToAllow(element);
    }

    /** {@code [[Lorg.acme.Cell;} is an array of {@code org.acme.Cell}. */
    private static String elementName(final String name) {
        final String element = name.substring(name.lastIndexOf('[') + 1);
        return name.startsWith("[") && element.startsWith("L") && element.endsWith(";")
                ? element.substring(1, element.length() - 1)
                : name;
    }

    /** The binary name of the refused class, as it came from the application or the wire. */
    public String className() {
        return className;
    }
}
