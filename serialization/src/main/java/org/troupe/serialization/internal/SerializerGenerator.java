package org.troupe.serialization.internal;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;

import com.esotericsoftware.kryo.Kryo;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.objenesis.instantiator.ObjectInstantiator;
import org.objenesis.strategy.StdInstantiatorStrategy;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Generates one serializer class per serialized class with the ClassFile API, defined as a hidden nestmate of that
 * class so its private and final fields are read with plain {@code getfield} and (where the JVM allows) written
 * with plain {@code putfield}: no reflection on the hot path. The generated code is straight-line, so it needs no
 * stack maps; its shape, for {@code class Node { double[] v; Node next; }}:
 *
 * <pre>{@code
 * Object writeFields(Kryo kryo, TroupeOutput out, Object o) { Node n = (Node) o; out.writeDoubleArray(n.v); return n.next; }
 * Object readFields(Kryo kryo, TroupeInput in) { Node n = new Node(); kryo.reference(n); n.v = FieldCodecs.readDoubleArray(in); return n; }
 * void setTail(Object o, Object v) { ((Node) o).next = (Node) v; }
 * }</pre>
 *
 * <p>Field order is fixed by the class alone: primitives, then references, each by declaring class (superclass
 * first) and name; a chain field (see {@link GraphState}) goes last. Primitives are fixed-width; primitive arrays
 * and strings need no class id; a field whose declared type is final is written without a class id; any other
 * field is written with one. Fields the hidden class cannot reach with field instructions (private fields of a
 * superclass in another nest, final fields, which only constructors may set) go through method handles kept as
 * constants of the hidden class, which the JIT inlines like field accesses.
 *
 * <p>A class of another module than this one (Troupe on the module path) cannot have a hidden class defined beside
 * it: its serializer is defined in this package instead, reads and writes every field through method handles, and
 * makes instances through a handle of the constructor. Its package must be open to {@code org.troupe.serialization}.
 *
 * <p>Generated classes are cached per serialized class; each Kryo instance gets its own serializer instance.
 */
public final class SerializerGenerator {
    private static final ClassDesc CD_KRYO = desc(Kryo.class);
    private static final ClassDesc CD_OUT = desc(TroupeOutput.class);
    private static final ClassDesc CD_IN = desc(TroupeInput.class);
    private static final ClassDesc CD_BASE = desc(GeneratedSerializer.class);
    private static final ClassDesc CD_SETUP = desc(GeneratedSerializer.Setup.class);
    private static final ClassDesc CD_CODECS = desc(FieldCodecs.class);
    private static final ClassDesc CD_MH = desc(MethodHandle.class);
    private static final MethodTypeDesc MTD_INIT = MethodTypeDesc.of(CD_void, CD_SETUP);

    private static final ClassValue<Blueprint> BLUEPRINTS = new ClassValue<>() {
        @Override
        protected Blueprint computeValue(final Class<?> type) {
            try {
                return new SerializerGenerator(type).generate();
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return new Blueprint(null, null, null, false, null, e);
            }
        }
    };

    /** A generated class and what its instances need; or why there is none. */
    private record Blueprint(
            MethodHandle constructor,
            Class<?>[] nestedTypes,
            Class<?> tailType,
            boolean tailFinal,
            ObjectInstantiator<?> instantiator,
            Throwable failure) {}

    /** The generated serializer for {@code type}, or an exception saying why none can be made. */
    static GeneratedSerializer<?> newSerializer(final Class<?> type, final GraphState graph)
            throws CannotGenerateException {
        final Blueprint b = BLUEPRINTS.get(type);
        if (b.failure() != null) {
            throw new CannotGenerateException(b.failure());
        }
        try {
            return (GeneratedSerializer<?>) b.constructor()
                    .invoke(new GeneratedSerializer.Setup(
                            type, b.nestedTypes(), b.tailType(), b.tailFinal(), b.instantiator(), graph));
        } catch (Throwable e) {
            throw new CannotGenerateException(e);
        }
    }

    /** Generation is impossible for a class; the caller falls back to a reflective serializer. */
    static final class CannotGenerateException extends Exception {
        private static final long serialVersionUID = 1L;

        CannotGenerateException(final Throwable cause) {
            super(cause.toString(), cause);
        }
    }

    // --- One generation ---

    private enum Kind {
        PRIMITIVE,
        STRING,
        PRIMITIVE_ARRAY,
        FINAL_OBJECT,
        ANY_OBJECT
    }

    /** How one field is written and read. Index fields are -1 when unused. */
    private record Plan(
            Field field, Kind kind, boolean directGet, boolean directSet, int getter, int setter, int nested) {
        Class<?> type() {
            return field.getType();
        }
    }

    private final Class<?> type;
    private final ClassDesc typeDesc;
    /** Where the serializer is defined: beside the type as its nestmate, or in this package when {@link #away}. */
    private final MethodHandles.Lookup lookup;
    /** Private access to the type's package, for the handles of its fields and constructors. */
    private final MethodHandles.Lookup access;
    /**
     * Whether the serializer is defined in this package rather than beside the type: for a type of another module
     * (Troupe on the module path), where no lookup has the full privilege access that defining a hidden class
     * needs. It then reaches every field and constructor through method handles (constants the JIT inlines) and names
     * the type only where it can be named from here.
     */
    private final boolean away;
    /** Away: the classData indices of the type and of its constructor's handle (no-argument, or canonical), or -1. */
    private int typeConstant = -1;

    private int constructorConstant = -1;
    private final List<Object> classData = new ArrayList<>();
    private final List<Class<?>> nestedTypes = new ArrayList<>();
    private final List<Plan> plans = new ArrayList<>();
    private Plan tail;

    private SerializerGenerator(final Class<?> type) throws IllegalAccessException {
        if (type.isHidden() || type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isArray()) {
            throw new IllegalArgumentException(type.getName() + " cannot have a generated serializer");
        }
        this.type = type;
        this.typeDesc = desc(type);
        this.access = privateLookup(type);
        this.away = !access.hasFullPrivilegeAccess();
        if (away
                && !type.getModule().isNamed()
                && !SerializerGenerator.class.getModule().isNamed()) {
            throw new IllegalArgumentException(
                    "no full-privilege access to " + type.getName() + " (another class loader)");
        }
        this.lookup = away ? MethodHandles.lookup() : access;
    }

    /**
     * A lookup with private access in {@code type}'s package, once this module reads the type's module (on the module
     * path it reads only what it requires). A package of a named module must be open to this module.
     */
    static MethodHandles.Lookup privateLookup(final Class<?> type) throws IllegalAccessException {
        final Module self = SerializerGenerator.class.getModule();
        final Module target = type.getModule();
        if (self.isNamed() && target != self) {
            self.addReads(target);
        }
        try {
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            throw target.isNamed() && !target.isOpen(type.getPackageName(), self)
                    ? new IllegalAccessException(notOpen(type))
                    : e;
        }
    }

    /** Why a class of a named module cannot be serialized here, and the fix. */
    static String notOpen(final Class<?> type) {
        return type.getModule() + " does not open package " + type.getPackageName() + " to "
                + moduleName() + ", so " + type.getName() + " cannot be serialized: add 'opens "
                + type.getPackageName() + " to " + moduleName() + ";' to its module-info";
    }

    private static String moduleName() {
        final Module self = SerializerGenerator.class.getModule();
        return self.isNamed() ? self.getName() : "org.troupe.serialization";
    }

    private Blueprint generate() throws ReflectiveOperationException {
        planFields();
        if (away) {
            classData.add(type);
            typeConstant = classData.size() - 1;
            if (type.isRecord()) {
                constructorConstant = constant(constructor(MethodType.methodType(
                        void.class,
                        Arrays.stream(type.getRecordComponents())
                                .map(RecordComponent::getType)
                                .toArray(Class<?>[]::new))));
            } else if (noArgConstructor() != null) {
                constructorConstant = constant(constructor(MethodType.methodType(void.class)));
            }
        }
        final ClassDesc self = ClassDesc.of((away
                        ? SerializerGenerator.class.getPackageName() + "."
                                + type.getName().substring(type.getName().lastIndexOf('.') + 1)
                        : type.getName())
                + "$$TroupeSerializer");
        // The run loops branch, so their stack maps need the class hierarchy, as the target's loader sees it.
        final ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                ClassHierarchyResolver.defaultResolver().orElse(ClassHierarchyResolver.ofClassLoading(lookup))));
        final byte[] bytes = classFile.build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                    .withSuperclass(CD_BASE)
                    .withMethodBody(
                            INIT_NAME,
                            MTD_INIT,
                            ClassFile.ACC_PUBLIC,
                            cob -> cob.aload(0)
                                    .aload(1)
                                    .invokespecial(CD_BASE, INIT_NAME, MTD_INIT)
                                    .return_())
                    .withMethodBody(
                            "writeFields",
                            MethodTypeDesc.of(CD_Object, CD_KRYO, CD_OUT, CD_Object),
                            ClassFile.ACC_PROTECTED | ClassFile.ACC_FINAL,
                            this::emitWriteFields)
                    .withMethodBody(
                            "readFields",
                            MethodTypeDesc.of(CD_Object, CD_KRYO, CD_IN),
                            ClassFile.ACC_PROTECTED | ClassFile.ACC_FINAL,
                            type.isRecord() ? this::emitReadRecord : this::emitReadFields)
                    .withMethodBody(
                            "setTail",
                            MethodTypeDesc.of(CD_void, CD_Object, CD_Object),
                            ClassFile.ACC_PROTECTED | ClassFile.ACC_FINAL,
                            this::emitSetTail);
            if (tail != null) {
                clb.withMethodBody(
                                "writeRun",
                                MethodTypeDesc.of(CD_Object, CD_KRYO, CD_OUT, CD_Object),
                                ClassFile.ACC_PROTECTED | ClassFile.ACC_FINAL,
                                this::emitWriteRun)
                        .withMethodBody(
                                "readRun",
                                MethodTypeDesc.of(CD_Object, CD_KRYO, CD_IN, CD_Object),
                                ClassFile.ACC_PROTECTED | ClassFile.ACC_FINAL,
                                this::emitReadRun);
            }
        });
        final MethodHandles.Lookup hidden = away
                ? lookup.defineHiddenClassWithClassData(bytes, List.copyOf(classData), true)
                : lookup.defineHiddenClassWithClassData(
                        bytes, List.copyOf(classData), true, MethodHandles.Lookup.ClassOption.NESTMATE);
        final MethodHandle constructor = hidden.findConstructor(
                hidden.lookupClass(), MethodType.methodType(void.class, GeneratedSerializer.Setup.class));
        final boolean needsInstantiator = !type.isRecord() && noArgConstructor() == null;
        return new Blueprint(
                constructor,
                nestedTypes.toArray(Class<?>[]::new),
                tail == null ? null : tail.type(),
                tail != null && tail.kind() == Kind.FINAL_OBJECT,
                needsInstantiator ? new StdInstantiatorStrategy().newInstantiatorOf(type) : null,
                null);
    }

    private Constructor<?> noArgConstructor() {
        try {
            return type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private void planFields() throws IllegalAccessException {
        final List<Field> fields = new ArrayList<>();
        final List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class && c != Record.class; c = c.getSuperclass()) {
            hierarchy.addFirst(c);
        }
        for (final Class<?> c : hierarchy) {
            final List<Field> own = new ArrayList<>();
            for (final Field f : c.getDeclaredFields()) {
                final int m = f.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                    own.add(f);
                }
            }
            own.sort(Comparator.comparing(Field::getName));
            fields.addAll(own);
        }
        // Primitives first (stable sort keeps superclass-first, then name order).
        fields.sort(Comparator.comparingInt(f -> f.getType().isPrimitive() ? 0 : 1));
        final Field tailField = type.isRecord()
                ? null
                : fields.stream().filter(this::isChainField).reduce((a, b) -> b).orElse(null);
        if (tailField != null) {
            fields.remove(tailField);
            fields.add(tailField);
        }
        if (type.isRecord() && !away) {
            for (final RecordComponent rc : type.getRecordComponents()) {
                requireAccessible(rc.getType());
            }
        }
        for (final Field f : fields) {
            final Plan p = plan(f);
            if (f == tailField) {
                tail = p;
            } else {
                plans.add(p);
            }
        }
    }

    private boolean isChainField(final Field f) {
        final Class<?> t = f.getType();
        return !t.isPrimitive() && !t.isArray() && t != Object.class && t.isAssignableFrom(type);
    }

    private Plan plan(final Field f) throws IllegalAccessException {
        final Class<?> t = f.getType();
        final Kind kind;
        if (t.isPrimitive()) {
            kind = Kind.PRIMITIVE;
        } else if (t == String.class) {
            kind = Kind.STRING;
        } else if (t.isArray() && t.getComponentType().isPrimitive()) {
            kind = Kind.PRIMITIVE_ARRAY;
        } else if (Modifier.isFinal(t.getModifiers()) && !t.isArray()) {
            kind = Kind.FINAL_OBJECT;
        } else {
            kind = Kind.ANY_OBJECT;
        }
        final boolean direct = reachable(f) && accessible(t);
        final boolean directSet = direct && !Modifier.isFinal(f.getModifiers());
        int getter = -1;
        int setter = -1;
        final MethodHandles.Lookup owner = privateLookup(f.getDeclaringClass());
        if (!direct) {
            getter = constant(owner.unreflectGetter(f).asType(MethodType.methodType(erased(t), Object.class)));
        }
        if (!directSet && !type.isRecord()) {
            f.setAccessible(true); // lets a handle set a final field, as deserialization must
            setter = constant(
                    owner.unreflectSetter(f).asType(MethodType.methodType(void.class, Object.class, erased(t))));
        }
        int nested = -1;
        if (kind == Kind.FINAL_OBJECT) {
            nested = nestedTypes.size();
            nestedTypes.add(t);
        }
        return new Plan(f, kind, direct, directSet, getter, setter, nested);
    }

    /** Whether a nestmate of {@code type} in its package can name the field with a field instruction. */
    private boolean reachable(final Field f) {
        if (away) {
            return false;
        }
        final Class<?> decl = f.getDeclaringClass();
        if (decl == type || decl.getNestHost() == type.getNestHost()) {
            return true;
        }
        final int m = f.getModifiers();
        if (Modifier.isPrivate(m)) {
            return false;
        }
        final boolean samePackage = decl.getClassLoader() == type.getClassLoader()
                && decl.getPackageName().equals(type.getPackageName());
        return samePackage || (Modifier.isPublic(m) && Modifier.isPublic(decl.getModifiers()) && accessible(decl));
    }

    private boolean accessible(final Class<?> c) {
        try {
            lookup.accessClass(c);
            // Away, the serializer's loader must also find this very class by its name.
            return !away
                    || c.isPrimitive()
                    || Class.forName(c.getName(), false, SerializerGenerator.class.getClassLoader()) == c;
        } catch (IllegalAccessException | ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private void requireAccessible(final Class<?> c) {
        if (!accessible(c)) {
            throw new IllegalArgumentException(
                    "record component type " + c.getName() + " is not accessible from " + type.getName());
        }
    }

    private int constant(final MethodHandle handle) {
        classData.add(handle);
        return classData.size() - 1;
    }

    private static Class<?> erased(final Class<?> t) {
        return t.isPrimitive() ? t : Object.class;
    }

    // --- Code emission (locals: 0 this, 1 kryo, 2 out/in, 3 object) ---

    private void emitWriteFields(final CodeBuilder cob) {
        for (final Plan p : plans) {
            emitWriteField(cob, p, 3);
        }
        if (tail != null) {
            emitGet(cob, tail, 3);
        } else {
            cob.aconst_null();
        }
        cob.areturn();
    }

    private void emitWriteField(final CodeBuilder cob, final Plan p, final int slot) {
        final Class<?> t = p.type();
        switch (p.kind()) {
            case PRIMITIVE -> {
                cob.aload(2);
                emitGet(cob, p, slot);
                cob.invokevirtual(CD_OUT, writerName(t), MethodTypeDesc.of(CD_void, writerParam(t)));
            }
            case STRING -> {
                cob.aload(2);
                emitGet(cob, p, slot);
                cob.invokevirtual(CD_OUT, "writeString", MethodTypeDesc.of(CD_void, CD_String));
            }
            case PRIMITIVE_ARRAY -> {
                cob.aload(2);
                emitGet(cob, p, slot);
                cob.invokevirtual(
                        CD_OUT,
                        "write" + capitalized(t.getComponentType()) + "Array",
                        MethodTypeDesc.of(CD_void, desc(t)));
            }
            case FINAL_OBJECT -> {
                cob.aload(0).aload(1).aload(2);
                emitGet(cob, p, slot);
                cob.ldc(p.nested())
                        .invokevirtual(
                                CD_BASE,
                                "writeFinal",
                                MethodTypeDesc.of(CD_void, CD_KRYO, CD_OUT, CD_Object, ConstantDescs.CD_int));
            }
            case ANY_OBJECT -> {
                cob.aload(0).aload(1).aload(2);
                emitGet(cob, p, slot);
                cob.invokevirtual(CD_BASE, "writeAny", MethodTypeDesc.of(CD_void, CD_KRYO, CD_OUT, CD_Object));
            }
            default -> throw new IllegalStateException(p.kind().toString());
        }
    }

    /** Pushes the field's value of the object in local {@code slot}. */
    private void emitGet(final CodeBuilder cob, final Plan p, final int slot) {
        final Field f = p.field();
        if (p.directGet()) {
            cob.aload(slot).checkcast(typeDesc).getfield(desc(f.getDeclaringClass()), f.getName(), desc(f.getType()));
        } else {
            cob.ldc(handle(p.getter()))
                    .aload(slot)
                    .invokevirtual(CD_MH, "invokeExact", MethodTypeDesc.of(desc(erased(f.getType())), CD_Object));
            if (!f.getType().isPrimitive()) {
                castIfNamed(cob, f.getType()); // the handle returns Object; writers of strings and arrays want the type
            }
        }
    }

    private void emitReadFields(final CodeBuilder cob) {
        emitNew(cob);
        cob.astore(3);
        // Registered before the fields are read, so a cycle back to this object resolves to it.
        cob.aload(1).aload(3).invokevirtual(CD_KRYO, "reference", MethodTypeDesc.of(CD_void, CD_Object));
        for (final Plan p : plans) {
            emitSet(cob, p, 3, () -> emitRead(cob, p));
        }
        cob.aload(3).areturn();
    }

    /** Pushes a new, empty instance of the serialized class. */
    private void emitNew(final CodeBuilder cob) {
        if (noArgConstructor() != null && !away) {
            cob.new_(typeDesc).dup().invokespecial(typeDesc, INIT_NAME, ConstantDescs.MTD_void);
        } else if (noArgConstructor() != null) {
            cob.ldc(handle(constructorConstant)).invokevirtual(CD_MH, "invokeExact", MethodTypeDesc.of(CD_Object));
            castIfNamed(cob, type);
        } else {
            cob.aload(0).invokevirtual(CD_BASE, "newInstance", MethodTypeDesc.of(CD_Object));
            castIfNamed(cob, type);
        }
    }

    /** A handle of the type's constructor taking {@code params}, taking and returning erased types. */
    private MethodHandle constructor(final MethodType params) {
        try {
            return access.findConstructor(type, params).asType(params.erase().changeReturnType(Object.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("no access to a constructor of " + type.getName(), e);
        }
    }

    /** Pushes the serialized class. */
    private void emitTypeConstant(final CodeBuilder cob) {
        if (away) {
            cob.ldc(DynamicConstantDesc.ofNamed(
                    ConstantDescs.BSM_CLASS_DATA_AT, ConstantDescs.DEFAULT_NAME, ConstantDescs.CD_Class, typeConstant));
        } else {
            cob.ldc(typeDesc);
        }
    }

    /**
     * {@code Object writeRun(Kryo kryo, TroupeOutput out, Object next)}: writes the links of a chain for as long as
     * they are of exactly this class, in a loop over straight-line field code; returns the first link of another
     * class, or null once the chain's null has been written. Only called when the message tracks no references.
     */
    private void emitWriteRun(final CodeBuilder cob) {
        final Label loop = cob.newLabel();
        final Label notNull = cob.newLabel();
        final Label self = cob.newLabel();
        cob.labelBinding(loop)
                .aload(3)
                .ifnonnull(notNull)
                .aload(2)
                .iconst_0()
                .invokevirtual(CD_OUT, "writeByte", MethodTypeDesc.of(CD_void, ConstantDescs.CD_byte))
                .aconst_null()
                .areturn()
                .labelBinding(notNull)
                .aload(3)
                .invokevirtual(CD_Object, "getClass", MethodTypeDesc.of(ConstantDescs.CD_Class));
        emitTypeConstant(cob);
        cob.if_acmpeq(self)
                .aload(3)
                .areturn()
                .labelBinding(self)
                .aload(0)
                .aload(2)
                .invokevirtual(CD_BASE, "writeLinkHeader", MethodTypeDesc.of(CD_void, CD_OUT));
        for (final Plan p : plans) {
            emitWriteField(cob, p, 3);
        }
        emitGet(cob, tail, 3);
        cob.astore(3).goto_(loop);
    }

    /**
     * {@code Object readRun(Kryo kryo, TroupeInput in, Object parent)}: reads links of exactly this class into the
     * chain after {@code parent} in a loop; returns the last link read if a link of another class follows (its
     * registration left with {@link GraphState}), or null once the chain's null has been read.
     */
    private void emitReadRun(final CodeBuilder cob) {
        final Label loop = cob.newLabel();
        final Label link = cob.newLabel();
        final Label other = cob.newLabel();
        cob.labelBinding(loop)
                .aload(0)
                .aload(2)
                .invokevirtual(CD_BASE, "readLinkHeader", MethodTypeDesc.of(ConstantDescs.CD_int, CD_IN))
                .dup()
                .ifne(link)
                .pop()
                .aconst_null()
                .areturn()
                .labelBinding(link)
                .iconst_1()
                .if_icmpne(other);
        emitNew(cob);
        cob.astore(4);
        for (final Plan p : plans) {
            emitSet(cob, p, 4, () -> emitRead(cob, p));
        }
        emitSet(cob, tail, 3, () -> cob.aload(4));
        cob.aload(4).astore(3).goto_(loop).labelBinding(other).aload(3).areturn();
    }

    private void emitReadRecord(final CodeBuilder cob) {
        final RecordComponent[] components = type.getRecordComponents();
        final int[] slots = new int[components.length];
        for (final Plan p : plans) {
            final int slot = cob.allocateLocal(kindOf(p.type()));
            emitRead(cob, p);
            cob.storeLocal(kindOf(p.type()), slot);
            for (int i = 0; i < components.length; i++) {
                if (components[i].getName().equals(p.field().getName())) {
                    slots[i] = slot;
                }
            }
        }
        final ClassDesc[] params = new ClassDesc[components.length];
        if (away) {
            cob.ldc(handle(constructorConstant));
        } else {
            cob.new_(typeDesc).dup();
        }
        for (int i = 0; i < components.length; i++) {
            params[i] = desc(away ? erased(components[i].getType()) : components[i].getType());
            cob.loadLocal(kindOf(components[i].getType()), slots[i]);
        }
        if (away) {
            cob.invokevirtual(CD_MH, "invokeExact", MethodTypeDesc.of(CD_Object, params))
                    .areturn();
        } else {
            cob.invokespecial(typeDesc, INIT_NAME, MethodTypeDesc.of(CD_void, params))
                    .areturn();
        }
    }

    /** Pushes the next field value read from the input, typed as the field (checked for references). */
    private void emitRead(final CodeBuilder cob, final Plan p) {
        final Class<?> t = p.type();
        switch (p.kind()) {
            case PRIMITIVE -> cob.aload(2).invokevirtual(CD_IN, readerName(t), MethodTypeDesc.of(desc(t)));
            case STRING -> cob.aload(2).invokevirtual(CD_IN, "readString", MethodTypeDesc.of(CD_String));
            case PRIMITIVE_ARRAY ->
                cob.aload(2)
                        .invokestatic(
                                CD_CODECS,
                                "read" + capitalized(t.getComponentType()) + "Array",
                                MethodTypeDesc.of(desc(t), CD_IN));
            case FINAL_OBJECT -> {
                cob.aload(0)
                        .aload(1)
                        .aload(2)
                        .ldc(p.nested())
                        .invokevirtual(
                                CD_BASE,
                                "readFinal",
                                MethodTypeDesc.of(CD_Object, CD_KRYO, CD_IN, ConstantDescs.CD_int));
                castIfNamed(cob, t);
            }
            case ANY_OBJECT -> {
                cob.aload(0)
                        .aload(1)
                        .aload(2)
                        .invokevirtual(CD_BASE, "readAny", MethodTypeDesc.of(CD_Object, CD_KRYO, CD_IN));
                castIfNamed(cob, t);
            }
            default -> throw new IllegalStateException(p.kind().toString());
        }
    }

    /** A wrong type from the wire fails here, before it reaches a field. Handles cast inaccessible types themselves. */
    private void castIfNamed(final CodeBuilder cob, final Class<?> t) {
        if (accessible(t) && t != Object.class) {
            cob.checkcast(desc(t));
        }
    }

    /** Stores into the field of the object in local {@code slot} the value {@code value} pushes. */
    private void emitSet(final CodeBuilder cob, final Plan p, final int slot, final Runnable value) {
        final Field f = p.field();
        if (p.directSet()) {
            cob.aload(slot).checkcast(typeDesc);
            value.run();
            cob.putfield(desc(f.getDeclaringClass()), f.getName(), desc(f.getType()));
        } else {
            cob.ldc(handle(p.setter())).aload(slot);
            value.run();
            cob.invokevirtual(CD_MH, "invokeExact", MethodTypeDesc.of(CD_void, CD_Object, desc(erased(f.getType()))));
        }
    }

    private void emitSetTail(final CodeBuilder cob) {
        if (tail != null) {
            emitSet(cob, tail, 1, () -> {
                cob.aload(2);
                castIfNamed(cob, tail.type());
            });
        }
        cob.return_();
    }

    // --- Descriptors ---

    private static DynamicConstantDesc<MethodHandle> handle(final int index) {
        return DynamicConstantDesc.ofNamed(ConstantDescs.BSM_CLASS_DATA_AT, ConstantDescs.DEFAULT_NAME, CD_MH, index);
    }

    private static ClassDesc desc(final Class<?> c) {
        return c.describeConstable().orElseThrow(() -> new IllegalArgumentException("cannot describe " + c));
    }

    private static TypeKind kindOf(final Class<?> t) {
        return TypeKind.from(desc(t));
    }

    private static String capitalized(final Class<?> primitive) {
        final String n = primitive.getName();
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    private static String writerName(final Class<?> primitive) {
        return "write" + capitalized(primitive);
    }

    private static String readerName(final Class<?> primitive) {
        return "read" + capitalized(primitive);
    }

    /** Kryo's {@code writeShort} takes an int; the others take their own type. */
    private static ClassDesc writerParam(final Class<?> primitive) {
        return primitive == short.class ? ConstantDescs.CD_int : desc(primitive);
    }
}
