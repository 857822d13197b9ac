// SPDX-License-Identifier: GPL-2.0
/*
 * ledring_spi_capture: an SPI controller with no wires. Every transfer it is given is recorded
 * (bytes, requested and effective clock, bits per word, mode, chip select, and where the transfer
 * sits in its message) and can be read back from debugfs, so ledring can be run against the real
 * kernel spidev driver (bound to this controller's devices through driver_override) under QEMU.
 *
 * The clock is rounded the way a Raspberry Pi's controller rounds it, from a source clock given
 * as a module parameter (writable at run time, so one boot can play several boards):
 *   divider=bcm2835     Pi 1-4, drivers/spi/spi-bcm2835.c bcm2835_spi_transfer_one():
 *                       cdiv = DIV_ROUND_UP(clk_hz, spi_hz); cdiv += cdiv % 2; cdiv >= 65536 -> 0
 *                       (meaning 65536); spi_hz >= clk_hz / 2 -> 2;
 *                       effective_speed_hz = cdiv ? clk_hz / cdiv : clk_hz / 65536
 *   divider=dw-apb-ssi  Pi 5 RP1, drivers/spi/spi-dw-core.c dw_spi_update_config():
 *                       clk_div = (DIV_ROUND_UP(max_freq, freq) + 1) & 0xfffe;
 *                       speed_hz = max_freq / clk_div; effective_speed_hz = current_freq
 * Real controllers report the clock they made in spi_transfer.effective_speed_hz
 * (include/linux/spi/spi.h: "the effective SCK-speed that was used to transfer this transfer");
 * this one sets it the same way and records it.
 *
 * Read:  /sys/kernel/debug/ledring-spi-capture/transfers, one line per transfer:
 *   xfer SEQ msg M index I last L cs C mode 0xMODE bits B speed REQ effective EFF divider D len N data HEX
 * Write anything to the same file to forget every recorded transfer.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>
#include <linux/string.h>

static unsigned int source_hz = 500000000;
module_param(source_hz, uint, 0644);
MODULE_PARM_DESC(source_hz, "clock the divider divides, Hz (Pi 3: 400 MHz, Pi 4: 500 MHz, Pi 5: 200 MHz)");

static char divider_rule[16] = "bcm2835";
module_param_string(divider, divider_rule, sizeof(divider_rule), 0644);
MODULE_PARM_DESC(divider, "bcm2835 (Pi 1-4) or dw-apb-ssi (Pi 5 RP1)");

static int bus_num;
module_param(bus_num, int, 0444);
MODULE_PARM_DESC(bus_num, "SPI bus number, so the nodes are /dev/spidevBUS.0 and .1");

static unsigned int max_capture_bytes = 32 << 20;
module_param(max_capture_bytes, uint, 0644);
MODULE_PARM_DESC(max_capture_bytes, "bytes of transfer data kept before further transfers are counted as dropped");

struct capture_record {
	struct list_head node;
	u64 seq;
	u64 msg;
	u32 index;
	bool last;
	u8 cs;
	u32 mode;
	u8 bits_per_word;
	u32 speed_hz;
	u32 effective_hz;
	u32 divider;
	u32 len;
	u8 data[];
};

static LIST_HEAD(records);
static DEFINE_MUTEX(records_lock);
static u64 next_seq;
static u64 message_count;
static u32 index_in_message;
static size_t captured_bytes;
static u64 dropped;

static struct platform_device *parent;
static struct spi_controller *controller;
static struct dentry *debug_dir;

/* The divider and clock the chosen controller makes for a request of speed_hz. */
static void round_clock(u32 speed_hz, u32 *divider, u32 *effective)
{
	u32 clk = source_hz;

	if (!strcmp(strim(divider_rule), "dw-apb-ssi")) {
		u32 div = speed_hz ? (DIV_ROUND_UP(clk, speed_hz) + 1) & 0xfffe : 65534;

		/* clk_div is a u16 register field; 2 is the fastest. */
		div = clamp_t(u32, div, 2, 65534);
		*divider = div;
		*effective = clk / div;
		return;
	}
	/* bcm2835 */
	if (speed_hz >= clk / 2) {
		*divider = 2;
	} else if (speed_hz) {
		u32 cdiv = DIV_ROUND_UP(clk, speed_hz);

		cdiv += cdiv % 2;
		*divider = cdiv >= 65536 ? 65536 : cdiv;
	} else {
		*divider = 65536;
	}
	*effective = clk / *divider;
}

static int capture_prepare_message(struct spi_controller *ctlr, struct spi_message *msg)
{
	mutex_lock(&records_lock);
	message_count++;
	index_in_message = 0;
	mutex_unlock(&records_lock);
	return 0;
}

static int capture_transfer_one(struct spi_controller *ctlr, struct spi_device *spi,
				struct spi_transfer *xfer)
{
	struct capture_record *record;
	u32 divider, effective;

	round_clock(xfer->speed_hz, &divider, &effective);
	xfer->effective_speed_hz = effective;

	mutex_lock(&records_lock);
	if (captured_bytes + xfer->len > max_capture_bytes) {
		dropped++;
		index_in_message++;
		mutex_unlock(&records_lock);
		return 0;
	}
	record = kzalloc(struct_size(record, data, xfer->len), GFP_KERNEL);
	if (!record) {
		dropped++;
		index_in_message++;
		mutex_unlock(&records_lock);
		return 0;
	}
	record->seq = next_seq++;
	record->msg = message_count;
	record->index = index_in_message++;
	record->last = ctlr->cur_msg &&
		list_is_last(&xfer->transfer_list, &ctlr->cur_msg->transfers);
	record->cs = spi_get_chipselect(spi, 0);
	record->mode = spi->mode;
	record->bits_per_word = xfer->bits_per_word;
	record->speed_hz = xfer->speed_hz;
	record->effective_hz = effective;
	record->divider = divider;
	record->len = xfer->len;
	if (xfer->tx_buf)
		memcpy(record->data, xfer->tx_buf, xfer->len);
	if (xfer->rx_buf)
		memset(xfer->rx_buf, 0, xfer->len);
	captured_bytes += xfer->len;
	list_add_tail(&record->node, &records);
	mutex_unlock(&records_lock);
	/* 0: the transfer is complete (spi_transfer_one_message does not wait for it). */
	return 0;
}

static void forget_records(void)
{
	struct capture_record *record, *next;

	list_for_each_entry_safe(record, next, &records, node) {
		list_del(&record->node);
		kfree(record);
	}
	captured_bytes = 0;
	dropped = 0;
}

static void *transfers_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&records_lock);
	return seq_list_start_head(&records, *pos);
}

static void *transfers_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &records, pos);
}

static void transfers_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&records_lock);
}

static int transfers_show(struct seq_file *m, void *v)
{
	struct capture_record *record;
	u32 offset;

	if (v == &records) {
		/* The head: how many were kept and lost, so a reader can refuse a partial capture. */
		seq_printf(m, "capture bytes %zu dropped %llu source_hz %u divider %s\n",
			   captured_bytes, dropped, source_hz, divider_rule);
		return 0;
	}
	record = list_entry(v, struct capture_record, node);
	seq_printf(m, "xfer %llu msg %llu index %u last %d cs %u mode 0x%x bits %u speed %u effective %u divider %u len %u data ",
		   record->seq, record->msg, record->index, record->last, record->cs, record->mode,
		   record->bits_per_word, record->speed_hz, record->effective_hz, record->divider,
		   record->len);
	/* %*phN prints at most 64 bytes; seq_file retries show() with a larger buffer when a
	 * long line does not fit. */
	for (offset = 0; offset < record->len; offset += 64)
		seq_printf(m, "%*phN", (int)min_t(u32, 64, record->len - offset), record->data + offset);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations transfers_ops = {
	.start = transfers_start,
	.next = transfers_next,
	.stop = transfers_stop,
	.show = transfers_show,
};

static int transfers_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &transfers_ops);
}

static ssize_t transfers_write(struct file *file, const char __user *buf, size_t count, loff_t *ppos)
{
	mutex_lock(&records_lock);
	forget_records();
	mutex_unlock(&records_lock);
	return count;
}

static const struct file_operations transfers_fops = {
	.owner = THIS_MODULE,
	.open = transfers_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
	.write = transfers_write,
};

static int __init capture_init(void)
{
	struct spi_board_info info = {
		/* Matches no driver: spidev is bound through driver_override from user space. */
		.modalias = "ledring-capture",
		.max_speed_hz = 125000000,
		.mode = SPI_MODE_0,
	};
	int ret;
	u8 cs;

	parent = platform_device_register_simple("ledring-spi-capture", -1, NULL, 0);
	if (IS_ERR(parent))
		return PTR_ERR(parent);

	controller = spi_alloc_host(&parent->dev, 0);
	if (!controller) {
		ret = -ENOMEM;
		goto err_parent;
	}
	controller->bus_num = bus_num;
	controller->num_chipselect = 2;
	/* The mode bits spi-bcm2835 declares (bcm2835_spi_probe). */
	controller->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_NO_CS | SPI_3WIRE;
	controller->bits_per_word_mask = SPI_BPW_MASK(8);
	controller->prepare_message = capture_prepare_message;
	controller->transfer_one = capture_transfer_one;

	ret = spi_register_controller(controller);
	if (ret) {
		spi_controller_put(controller);
		goto err_parent;
	}
	for (cs = 0; cs < 2; cs++) {
		info.chip_select = cs;
		if (!spi_new_device(controller, &info)) {
			ret = -ENODEV;
			goto err_controller;
		}
	}
	debug_dir = debugfs_create_dir("ledring-spi-capture", NULL);
	debugfs_create_file("transfers", 0600, debug_dir, NULL, &transfers_fops);
	pr_info("ledring-spi-capture: SPI bus %d, chip selects 0 and 1, %s divider from %u Hz\n",
		bus_num, divider_rule, source_hz);
	return 0;

err_controller:
	spi_unregister_controller(controller);
err_parent:
	platform_device_unregister(parent);
	return ret;
}

static void __exit capture_exit(void)
{
	debugfs_remove_recursive(debug_dir);
	spi_unregister_controller(controller);
	platform_device_unregister(parent);
	mutex_lock(&records_lock);
	forget_records();
	mutex_unlock(&records_lock);
}

module_init(capture_init);
module_exit(capture_exit);
MODULE_DESCRIPTION("SPI controller that records every transfer, for ledring's tests");
MODULE_LICENSE("GPL");
