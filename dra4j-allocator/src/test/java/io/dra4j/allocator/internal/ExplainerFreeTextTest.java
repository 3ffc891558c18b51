package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.KubeQuantity;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The free amount in capacity details is a canonical quantity, as the amount asked is, never a plain number; so are the
 * amounts in counter details.
 */
class ExplainerFreeTextTest {

    @Test
    void freeCapacityIsPrintedAsCanonicalQuantity() {
        assertThat(Explainer.freeText(KubeQuantity.parse("40Gi"), KubeQuantity.parse("20Gi")))
                .isEqualTo("20Gi");
        assertThat(Explainer.freeText(KubeQuantity.parse("40Gi"), null)).isEqualTo("40Gi");
        assertThat(Explainer.freeText(KubeQuantity.parse("4G"), KubeQuantity.parse("1G")))
                .isEqualTo("3G");
        assertThat(Explainer.freeText(KubeQuantity.parse("8"), KubeQuantity.parse("500m")))
                .isEqualTo("7500m");
    }

    @Test
    void theCapacityKeepsItsFormatWhenSomethingOfAnotherFormatIsConsumed() {
        // Go's Sub keeps the receiver's format: 40Gi less 1G stays binary, and 41949672960 is no multiple of 1Ki,
        // so resource.Quantity's String prints it without a suffix (checked against apimachinery's String).
        assertThat(Explainer.freeText(KubeQuantity.parse("40Gi"), KubeQuantity.parse("1G")))
                .isEqualTo("41949672960");
        assertThat(Explainer.freeText(KubeQuantity.parse("40Gi"), KubeQuantity.parse("1Gi")))
                .isEqualTo("39Gi");
    }

    @Test
    void counterAmountsArePrintedAsCanonicalQuantitiesInTheirFormat() {
        // 70Gi and -10Gi (an overdrawn counter) in the binary format they were written in; a plain count stays plain.
        assertThat(Explainer.quantityText(new BigDecimal("75161927680"), KubeQuantity.Format.BINARY_SI))
                .isEqualTo("70Gi");
        assertThat(Explainer.quantityText(new BigDecimal("-10737418240"), KubeQuantity.Format.BINARY_SI))
                .isEqualTo("-10Gi");
        assertThat(Explainer.quantityText(new BigDecimal("7"), KubeQuantity.Format.DECIMAL_SI))
                .isEqualTo("7");
        // resource.Quantity's String prints a binary amount under 1024 in the decimal format: 0.5 is 500m.
        assertThat(Explainer.quantityText(new BigDecimal("0.5"), KubeQuantity.Format.BINARY_SI))
                .isEqualTo("500m");
        assertThat(Explainer.quantityText(new BigDecimal("4000000000"), null)).isEqualTo("4G");
    }
}
