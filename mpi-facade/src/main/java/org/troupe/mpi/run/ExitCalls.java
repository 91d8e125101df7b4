package org.troupe.mpi.run;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.MethodRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites a rank's calls of {@code System.exit(int)}, {@code Runtime.exit(int)} and {@code Runtime.halt(int)} into
 * calls of {@link RankExit}: in a job of threads, such a call would end the JVM, and every rank with it.
 */
final class ExitCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ExitCalls.class);
    private static final ClassDesc SYSTEM = ClassDesc.of("java.lang.System");
    private static final ClassDesc RUNTIME = ClassDesc.of("java.lang.Runtime");
    private static final ClassDesc RANK_EXIT = ClassDesc.of(RankExit.class.getName());
    private static final MethodTypeDesc INT_TO_VOID = MethodTypeDesc.of(CD_void, CD_int);
    private static final MethodTypeDesc RUNTIME_INT_TO_VOID = MethodTypeDesc.of(CD_void, RUNTIME, CD_int);
    private static final byte[] EXIT = "exit".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HALT = "halt".getBytes(StandardCharsets.US_ASCII);

    private static final CodeTransform REWRITE = (code, element) -> {
        if (element instanceof InvokeInstruction call && isExit(call.method())) {
            final boolean system = call.owner().asSymbol().equals(SYSTEM);
            if (call.opcode() == (system ? Opcode.INVOKESTATIC : Opcode.INVOKEVIRTUAL)) {
                // The same operands on the stack, and as many bytes: a static method takes the Runtime's place.
                code.invokestatic(RANK_EXIT, call.name().stringValue(), system ? INT_TO_VOID : RUNTIME_INT_TO_VOID);
                return;
            }
        }
        code.with(element);
    };

    private ExitCalls() {}

    /**
     * The class {@code name} defined by {@code classFile} with its exit calls rewritten; null if it has none, or if
     * it cannot be rewritten (it is then defined as it is). {@code loader} finds the classes the rewritten code's
     * stack maps need.
     */
    static byte[] rewrite(final String name, final byte[] classFile, final ClassLoader loader) {
        // Most classes never name a method exit or halt: they are passed over without being parsed.
        if (indexOf(classFile, EXIT) < 0 && indexOf(classFile, HALT) < 0) {
            return null;
        }
        try {
            final ClassFile api = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                    ClassHierarchyResolver.ofResourceParsing(loader).orElse(ClassHierarchyResolver.defaultResolver())));
            final ClassModel model = api.parse(classFile);
            if (!callsExit(model)) {
                return null;
            }
            return api.transformClass(model, ClassTransform.transformingMethodBodies(REWRITE));
        } catch (RuntimeException e) { // IllegalArgumentException for what the API cannot read or write
            LOG.warn(
                    "{} may call System.exit or Runtime.exit/halt, but its class file cannot be read or rewritten"
                            + " ({}): it is loaded as it is, and such a call would end the JVM with every rank; run the job with"
                            + " -dev jvm if it makes one",
                    name,
                    e.toString());
            return null;
        }
    }

    private static boolean callsExit(final ClassModel model) {
        for (final PoolEntry e : model.constantPool()) {
            if (e instanceof MethodRefEntry m && isExit(m)) {
                return true;
            }
        }
        return false;
    }

    /** {@code System.exit(int)}, {@code Runtime.exit(int)} or {@code Runtime.halt(int)}. */
    private static boolean isExit(final MemberRefEntry m) {
        if (!(m instanceof MethodRefEntry) || !m.type().equalsString(INT_TO_VOID.descriptorString())) {
            return false;
        }
        final ClassDesc owner = m.owner().asSymbol();
        final String name = m.name().stringValue();
        return owner.equals(SYSTEM)
                ? name.equals("exit")
                : owner.equals(RUNTIME) && (name.equals("exit") || name.equals("halt"));
    }

    private static int indexOf(final byte[] in, final byte[] what) {
        outer:
        for (int i = 0; i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
