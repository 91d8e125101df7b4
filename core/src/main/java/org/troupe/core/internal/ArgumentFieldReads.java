package org.troupe.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.LoadInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.troupe.core.proxy.ProxyGenerator;

/**
 * Finds, in a class's bytecode, the methods that read a field of one of their arguments directly ({@code o.sum}), where
 * that argument's type can be a future. A future is a proxy, a subclass whose fields are never set: such a read gives
 * the field's default value, with no error, and the JVM cannot intercept it. Only an argument loaded straight from its
 * parameter slot is seen ({@code aload; getfield}): a copy in a local variable, or a field read through another
 * field, is not. What it finds is a hint to log, not a proof: the argument may never be a future.
 */
public final class ArgumentFieldReads {
    private ArgumentFieldReads() {}

    /**
     * The reads in {@code type}'s own methods and constructors, as {@code "plus(Sample) reads sum of argument 1"};
     * empty when there are none or its bytecode cannot be read.
     */
    public static List<String> in(final Class<?> type) {
        final byte[] bytes = bytesOf(type);
        if (bytes == null) {
            return List.of();
        }
        final ClassModel model;
        try {
            model = ClassFile.of().parse(bytes);
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        final Set<String> found = new LinkedHashSet<>();
        final Map<String, Boolean> canBeFuture = new HashMap<>();
        for (final MethodModel m : model.methods()) {
            if ((m.flags().flagsMask() & (ClassFile.ACC_SYNTHETIC | ClassFile.ACC_BRIDGE)) != 0) {
                continue;
            }
            final MethodTypeDesc desc = m.methodTypeSymbol();
            final boolean isStatic = (m.flags().flagsMask() & ClassFile.ACC_STATIC) != 0;
            // parameter slot -> its index from 1, for the parameters whose type can be a future
            final Map<Integer, Integer> slots = new HashMap<>();
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < desc.parameterCount(); i++) {
                final ClassDesc p = desc.parameterType(i);
                if (p.isClassOrInterface()
                        && canBeFuture.computeIfAbsent(p.descriptorString(), d -> canBeFuture(type, p))) {
                    slots.put(slot, i + 1);
                }
                slot += TypeKind.from(p).slotSize();
            }
            if (slots.isEmpty() || m.code().isEmpty()) {
                continue;
            }
            CodeElement previous = null;
            for (final CodeElement e : m.code().get()) {
                if (e instanceof FieldInstruction f
                        && f.opcode() == Opcode.GETFIELD
                        && previous instanceof LoadInstruction l
                        && slots.containsKey(l.slot())) {
                    found.add(signature(m, desc) + " reads " + f.name().stringValue() + " of argument "
                            + slots.get(l.slot()));
                }
                if (e instanceof Instruction) {
                    previous = e;
                }
            }
        }
        return new ArrayList<>(found);
    }

    private static boolean canBeFuture(final Class<?> from, final ClassDesc desc) {
        try {
            final Class<?> c = Class.forName(
                    desc.descriptorString()
                            .substring(1, desc.descriptorString().length() - 1)
                            .replace('/', '.'),
                    false,
                    from.getClassLoader());
            return !c.isInterface() && c != Object.class && ProxyGenerator.canProxy(c);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String signature(final MethodModel m, final MethodTypeDesc desc) {
        final String name = m.methodName().stringValue();
        final StringBuilder b = new StringBuilder(name.equals("<init>") ? "the constructor" : name).append('(');
        for (int i = 0; i < desc.parameterCount(); i++) {
            final String type = desc.parameterType(i).displayName(); // a nested class's is Outer$Inner
            b.append(i == 0 ? "" : ", ").append(type.substring(type.lastIndexOf('$') + 1));
        }
        return b.append(')').toString();
    }

    private static byte[] bytesOf(final Class<?> type) {
        if (type.isHidden() || type.isArray() || type.isPrimitive()) {
            return null;
        }
        final String name = type.getName();
        try (InputStream in = type.getResourceAsStream(name.substring(name.lastIndexOf('.') + 1) + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
