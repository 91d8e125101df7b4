package org.troupe.core.proxy;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.objenesis.ObjenesisStd;
import org.objenesis.instantiator.ObjectInstantiator;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Proxied;

/**
 * Generates, with the ClassFile API, the two classes behind every proxied type: a <em>proxy</em> (a subclass of the
 * type, or an implementation of the interface) whose intercepted methods all call a {@link CallHandler}, and an
 * {@link Invoker} that calls the type's methods by index. Both are hidden classes, defined beside the type when its
 * package is open to Troupe and in Troupe's module (the class path), and in this package otherwise: then the type
 * must be public, and, in a named module, in a package exported or open to {@code org.troupe.core}. Proxies are made
 * without running any constructor of the type, so any class that is neither final nor sealed can be proxied.
 */
public final class ProxyGenerator {
    private static final ClassDesc CD_HANDLER = ClassDesc.of(CallHandler.class.getName());
    private static final ClassDesc CD_PROXIED = ClassDesc.of(Proxied.class.getName());
    private static final ClassDesc CD_INVOKER = ClassDesc.of(Invoker.class.getName());
    private static final ClassDesc CD_TABLE = ClassDesc.of(MethodTable.class.getName());
    private static final ClassDesc CD_OBJECT_ARRAY = CD_Object.arrayType();
    private static final MethodTypeDesc MTD_HANDLE = MethodTypeDesc.of(CD_Object, CD_int, CD_OBJECT_ARRAY);
    private static final String HANDLER_FIELD = "troupe$h";
    private static final ObjenesisStd OBJENESIS = new ObjenesisStd(true);

    private static final ClassValue<ObjectInstantiator<?>> PROXIES = new ClassValue<>() {
        @Override
        protected ObjectInstantiator<?> computeValue(final Class<?> type) {
            return OBJENESIS.getInstantiatorOf(new ProxyGenerator(type).defineProxy());
        }
    };

    private static final ClassValue<Invoker> INVOKERS = new ClassValue<>() {
        @Override
        protected Invoker computeValue(final Class<?> type) {
            return new ProxyGenerator(type).defineInvoker();
        }
    };

    private final Class<?> type;
    private final ClassDesc typeDesc;
    private final MethodTable table;
    private final MethodHandles.Lookup lookup;

    private ProxyGenerator(final Class<?> type) {
        if (!canProxy(type)) {
            throw new IllegalArgumentException(type.getName() + " cannot be proxied: it is final, sealed, hidden, a"
                    + " primitive, an array or an enum");
        }
        this.type = type;
        this.typeDesc = ClassDesc.of(type.getName());
        this.table = MethodTable.of(type);
        this.lookup = lookupFor(type);
    }

    /** Whether {@link #newProxy} can make a proxy of {@code type}. */
    public static boolean canProxy(final Class<?> type) {
        final int m = type.getModifiers();
        return !type.isPrimitive()
                && !type.isArray()
                && !type.isHidden()
                && !type.isSealed()
                && !type.isEnum()
                && !Modifier.isFinal(m)
                && (type.isInterface() || !type.isAnnotation())
                && (Modifier.isPublic(m) || type.getClassLoader() != null);
    }

    /** A new proxy of {@code type} whose calls go to {@code handler}. */
    public static <T> T newProxy(final Class<T> type, final CallHandler handler) {
        final Object proxy = PROXIES.get(type).newInstance();
        ((Proxied) proxy).troupe$bind(handler);
        return type.cast(proxy);
    }

    /** The handler behind {@code object} if it is a proxy, else null. */
    public static CallHandler handlerOf(final Object object) {
        return object instanceof Proxied p ? p.troupe$handler() : null;
    }

    public static Invoker invoker(final Class<?> type) {
        return INVOKERS.get(type);
    }

    private static MethodHandles.Lookup lookupFor(final Class<?> type) {
        final Module core = ProxyGenerator.class.getModule();
        if (core.isNamed()) {
            // On the module path the core reads only what it requires; classes defined here name these types.
            core.addReads(type.getModule());
            for (final Method m : type.getMethods()) {
                core.addReads(m.getReturnType().getModule());
                for (final Class<?> p : m.getParameterTypes()) {
                    core.addReads(p.getModule());
                }
            }
        }
        try {
            final MethodHandles.Lookup own = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            if (own.hasFullPrivilegeAccess()) {
                return own;
            }
        } catch (IllegalAccessException | SecurityException e) {
            // A package not open to us, e.g. java.util: define the classes here; the type must then be public.
        }
        // Also a type of another module than the core's (Troupe on the module path): a lookup there never has the
        // full privilege access that defining a hidden class needs.
        if (!Modifier.isPublic(type.getModifiers())) {
            throw new IllegalArgumentException(type.getName() + " cannot be proxied: it is not public and "
                    + (type.getModule() == core || !core.isNamed()
                            ? "its package is not open to Troupe"
                            : "not in module " + core.getName()));
        }
        return MethodHandles.lookup();
    }

    private ClassDesc nameFor(final String suffix) {
        final String pkg = lookup.lookupClass().getPackageName();
        final String simple = type.getName().substring(type.getName().lastIndexOf('.') + 1);
        return ClassDesc.of((pkg.isEmpty() ? "" : pkg + ".") + simple + suffix);
    }

    private ClassFile classFile() {
        return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                ClassHierarchyResolver.defaultResolver().orElse(ClassHierarchyResolver.ofClassLoading(lookup))));
    }

    private MethodHandles.Lookup define(final byte[] bytes) {
        try {
            return lookup.defineHiddenClass(bytes, true);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("Cannot define a proxy class for " + type.getName(), e);
        }
    }

    // --- The proxy: every intercepted method calls handler.handle(index, args) ---

    private Class<?> defineProxy() {
        final ClassDesc self = nameFor("$$TroupeProxy");
        final byte[] bytes = classFile().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            if (type.isInterface()) {
                clb.withSuperclass(CD_Object).withInterfaceSymbols(typeDesc, CD_PROXIED);
            } else {
                clb.withSuperclass(typeDesc).withInterfaceSymbols(CD_PROXIED);
            }
            clb.withField(HANDLER_FIELD, CD_HANDLER, ClassFile.ACC_PRIVATE);
            clb.withMethodBody(
                    "troupe$handler",
                    MethodTypeDesc.of(CD_HANDLER),
                    ClassFile.ACC_PUBLIC,
                    cob -> cob.aload(0)
                            .getfield(self, HANDLER_FIELD, CD_HANDLER)
                            .areturn());
            clb.withMethodBody(
                    "troupe$bind",
                    MethodTypeDesc.of(CD_void, CD_HANDLER),
                    ClassFile.ACC_PUBLIC,
                    cob -> cob.aload(0)
                            .aload(1)
                            .putfield(self, HANDLER_FIELD, CD_HANDLER)
                            .return_());
            for (int i = 0; i < table.size(); i++) {
                final Method m = table.method(i);
                final int index = i;
                if (m.getDeclaringClass() == Object.class && finalInType(m)) {
                    continue;
                }
                clb.withMethodBody(
                        m.getName(), descriptor(m), ClassFile.ACC_PUBLIC, cob -> emitProxyMethod(cob, self, m, index));
            }
        });
        return define(bytes).lookupClass();
    }

    /** Whether the type makes one of Object's methods final: then the proxy cannot, and need not, override it. */
    private boolean finalInType(final Method m) {
        try {
            return Modifier.isFinal(
                    type.getMethod(m.getName(), m.getParameterTypes()).getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static void emitProxyMethod(final CodeBuilder cob, final ClassDesc self, final Method m, final int index) {
        final Class<?>[] params = m.getParameterTypes();
        cob.aload(0).getfield(self, HANDLER_FIELD, CD_HANDLER).loadConstant(index);
        cob.loadConstant(params.length).anewarray(CD_Object);
        int slot = 1;
        for (int j = 0; j < params.length; j++) {
            final TypeKind kind = TypeKind.from(params[j]);
            cob.dup().loadConstant(j).loadLocal(kind, slot);
            box(cob, params[j]);
            cob.aastore();
            slot += kind.slotSize();
        }
        cob.invokeinterface(CD_HANDLER, "handle", MTD_HANDLE);
        final Class<?> r = m.getReturnType();
        if (r == void.class) {
            cob.pop().return_();
        } else if (r.isPrimitive()) {
            unbox(cob, r);
            cob.return_(TypeKind.from(r));
        } else {
            cob.checkcast(ClassDesc.ofDescriptor(r.descriptorString())).areturn();
        }
    }

    // --- The invoker: a switch over the table's methods ---

    private Invoker defineInvoker() {
        final ClassDesc self = nameFor("$$TroupeInvoker");
        final byte[] bytes = classFile().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                    .withSuperclass(CD_Object)
                    .withInterfaceSymbols(CD_INVOKER)
                    .withMethodBody(
                            INIT_NAME,
                            MethodTypeDesc.of(CD_void),
                            ClassFile.ACC_PUBLIC,
                            cob -> cob.aload(0)
                                    .invokespecial(CD_Object, INIT_NAME, MethodTypeDesc.of(CD_void))
                                    .return_())
                    .withMethodBody(
                            "invoke",
                            MethodTypeDesc.of(CD_Object, CD_Object, CD_int, CD_OBJECT_ARRAY),
                            ClassFile.ACC_PUBLIC,
                            this::emitInvoke);
        });
        final MethodHandles.Lookup hidden = define(bytes);
        try {
            return (Invoker) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("Cannot instantiate the invoker of " + type.getName(), e);
        }
    }

    private void emitInvoke(final CodeBuilder cob) {
        final Label fail = cob.newLabel();
        final List<SwitchCase> cases = new ArrayList<>();
        final List<Label> labels = new ArrayList<>();
        for (int i = 0; i < table.size(); i++) {
            final Label l = cob.newLabel();
            labels.add(l);
            cases.add(SwitchCase.of(i, l));
        }
        cob.iload(2).tableswitch(0, table.size() - 1, fail, cases);
        for (int i = 0; i < table.size(); i++) {
            final Method m = table.method(i);
            cob.labelBinding(labels.get(i));
            final boolean onObject = m.getDeclaringClass() == Object.class;
            cob.aload(1);
            if (!onObject) {
                cob.checkcast(typeDesc);
            }
            final Class<?>[] params = m.getParameterTypes();
            for (int j = 0; j < params.length; j++) {
                cob.aload(3).loadConstant(j).aaload();
                if (params[j].isPrimitive()) {
                    unbox(cob, params[j]);
                } else if (params[j] != Object.class) {
                    cob.checkcast(ClassDesc.ofDescriptor(params[j].descriptorString()));
                }
            }
            if (onObject) {
                cob.invokevirtual(CD_Object, m.getName(), descriptor(m));
            } else if (type.isInterface()) {
                cob.invokeinterface(typeDesc, m.getName(), descriptor(m));
            } else {
                cob.invokevirtual(typeDesc, m.getName(), descriptor(m));
            }
            final Class<?> r = m.getReturnType();
            if (r == void.class) {
                cob.aconst_null();
            } else {
                box(cob, r);
            }
            cob.areturn();
        }
        cob.labelBinding(fail);
        cob.loadConstant(typeDesc)
                .iload(2)
                .invokestatic(
                        CD_TABLE,
                        "noSuchMethod",
                        MethodTypeDesc.of(
                                ClassDesc.of(RuntimeException.class.getName()),
                                ClassDesc.of(Class.class.getName()),
                                CD_int))
                .athrow();
    }

    // --- Boxing ---

    private static MethodTypeDesc descriptor(final Method m) {
        return MethodTypeDesc.ofDescriptor(
                MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString());
    }

    private static ClassDesc boxOf(final Class<?> primitive) {
        return ClassDesc.of(MethodType.methodType(primitive).wrap().returnType().getName());
    }

    private static void box(final CodeBuilder cob, final Class<?> t) {
        if (t.isPrimitive()) {
            final ClassDesc box = boxOf(t);
            cob.invokestatic(box, "valueOf", MethodTypeDesc.of(box, ClassDesc.ofDescriptor(t.descriptorString())));
        }
    }

    private static void unbox(final CodeBuilder cob, final Class<?> t) {
        final ClassDesc box = boxOf(t);
        cob.checkcast(box)
                .invokevirtual(
                        box, t.getName() + "Value", MethodTypeDesc.of(ClassDesc.ofDescriptor(t.descriptorString())));
    }
}
