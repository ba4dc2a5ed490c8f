package io.cloudg.preload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassListTest {
    @Test
    void readsTheJvmsLoadedClassListKeepingOrderAndDroppingWhatNamesNoLoadableClass() {
        ClassList list = ClassList.parse(List.of(
                "# NOTE: Do not modify this file.",
                "java/lang/Object id: 0",
                "io/cloudg/cli/Main id: 1234 super: 0 source: /x/cloudg-cli.jar",
                "@lambda-proxy java/lang/Runnable run ()Ljava/lang/Runnable;",
                "@cp java/lang/invoke/LambdaForm 1 2",
                "",
                "java.util.List",
                "java/lang/Object id: 0",
                "jdk/internal/Foo$$Lambda/0x0000000012345 id: 9",
                "not a class: at all"));
        assertThat(list.names()).containsExactly("java.lang.Object", "io.cloudg.cli.Main", "java.util.List", "not");
    }

    @Test
    void slicesWalkTheListInItsOrderAndCoverEveryNameOnce() {
        ClassList list = new ClassList(List.of("a", "b", "c", "d", "e"));
        assertThat(list.slice(0, 2)).containsExactly("a", "c", "e");
        assertThat(list.slice(1, 2)).containsExactly("b", "d");
    }
}
