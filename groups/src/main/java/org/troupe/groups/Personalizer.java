package org.troupe.groups;

/** Gives each member its own arguments, for personalized invocation ({@link GroupMethod#personalize}). */
@FunctionalInterface
public interface Personalizer {
    /**
     * @param rank the member's index in the group
     * @param size the group's size
     * @param args the arguments of the call on the group (a copy: change it and return it if that suits)
     * @return the arguments for member {@code rank}, as many as the method takes
     */
    Object[] argumentsFor(int rank, int size, Object[] args);
}
